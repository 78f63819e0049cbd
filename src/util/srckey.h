/* The identity of an SRC point across processes: the MPI function's name and
 * its resolved call stack, as one string.  Independent of where libraries were
 * loaded, so the same call site has the same key on every process.
 *
 *   key   = FUNCTION ( RS frame )*
 *   frame = path US line US function US text [ US origin ]  (RS = \x1e, US = \x1f)
 *
 * `text` is what the protocol prints: "jacobi.c:88 (exchange)",
 * "main+0x1f" from the symbol table, or "module+0xOFFSET" when the frame
 * could not be resolved.  `origin` says which (MPP_ORIGIN_*).  One return
 * address gives one frame, or several when functions were inlined at it
 * (its frame record: frames joined by RS, innermost first). */
#ifndef MPP_SRCKEY_H
#define MPP_SRCKEY_H

#include <stddef.h>

#define MPP_RS '\x1e'
#define MPP_US '\x1f'

/* Where a frame's name and position come from. */
#define MPP_ORIGIN_LINE "line"             /* the DWARF line table, the function of the code */
#define MPP_ORIGIN_INLINED "inlined"       /* a function inlined there: DWARF's inlined-subroutine entry */
#define MPP_ORIGIN_SYMBOL "symbol"         /* no line: the symbol table's function and offset */
#define MPP_ORIGIN_UNRESOLVED "unresolved" /* module and offset */

typedef struct {
    char *path;
    int line;       /* 0: unknown */
    char *function; /* "" : unknown */
    char *file;     /* base name of path */
    char *text;
    char *origin; /* MPP_ORIGIN_*; "" : not given (a folded SRC point) */
} mpp_frame_t;

/* Split a key into function name and frames (allocated; free with
 * mpp_srckey_free_frames: the frames' strings live in the frames' block and
 * are never freed or replaced one by one).  Returns the number of frames. */
int mpp_srckey_parse(const char *key, char **function, mpp_frame_t **frames);
void mpp_srckey_free_frames(mpp_frame_t *frames, int n);

/* How the frames of one return address's record (its outermost frame)
 * end a call stack: MPP_STACK_GOES_ON, MPP_STACK_ENTRY (the program's
 * main, or gfortran's MAIN__: kept, the last frame), MPP_STACK_RUNTIME (the
 * C library's code that starts a thread or calls main: start_thread,
 * clone, __libc_start_call_main, ...: dropped with everything below). */
enum { MPP_STACK_GOES_ON, MPP_STACK_ENTRY, MPP_STACK_RUNTIME };
int mpp_srckey_stack_end(const char *record);

/* The end of the frames of one return address that start at `frame`
 * (its inlined frames, then the first frame that is not one): the RS
 * after them, or the end of the string. */
const char *mpp_srckey_address_end(const char *frame);

/* The texts of a record's frames joined by " <- " into out (truncated to
 * size). */
void mpp_srckey_record_text(const char *record, char *out, size_t size);

#endif
