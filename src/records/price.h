/* The communication model's price of calls (analyze/model.h has the
 * formulas): per link, the latency units and the bytes of a call's
 * formula.  The wrappers price each call as it is made, the tables sum the
 * prices per cell, the profile keeps them until MPI_Finalize, where the
 * model's parameters are final and a price becomes seconds. */
#ifndef MPP_RECORDS_PRICE_H
#define MPP_RECORDS_PRICE_H

/* Where a message goes. */
enum { MPP_LINK_NONE = -1 /* no transfer (MPI_PROC_NULL) */, MPP_LINK_INTRA = 0, MPP_LINK_INTER = 1, MPP_NLINKS };

/* A sum of prices: per link, units then bytes.  Its seconds are  sum over
 * links of units a + bytes / bandwidth. */
enum { MPP_PRICE_UNITS = 0, MPP_PRICE_BYTES = 1, MPP_NPRICE = 2 * MPP_NLINKS };

static inline void mpp_price_add(double sum[MPP_NPRICE], const double price[MPP_NPRICE])
{
    for (int k = 0; k < MPP_NPRICE; k++)
        sum[k] += price[k];
}

/* One call's price: a call (or a request) uses one link.  Plain scalars,
 * so that the wrappers' few stores and the cell's two additions stay as
 * cheap as the one price in seconds they replace. */
typedef struct {
    double units, bytes;
    int link; /* MPP_LINK_INTRA or MPP_LINK_INTER; nothing priced: units = bytes = 0 */
} mpp_call_price_t;

static inline __attribute__((always_inline)) void mpp_price_add_call(double sum[MPP_NPRICE],
                                                                     const mpp_call_price_t *p)
{
    sum[2 * p->link + MPP_PRICE_UNITS] += p->units;
    sum[2 * p->link + MPP_PRICE_BYTES] += p->bytes;
}

#endif
