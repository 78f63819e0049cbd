/* The C main program of tests/mpi/callsites/callsite_nofp_f08.f90: calls the Fortran
 * program with a frame-pointer register pointing far above the stack, as
 * optimized code may leave it (a stack walk that trusts it faults). */
#include <stdint.h>

void callsite_f08_run(void);

int main(int argc, char **argv)
{
    (void)argc;
    register uintptr_t garbage __asm__("rbp") = ((uintptr_t)argv & ~(uintptr_t)15) + ((uintptr_t)1 << 40);
    __asm__ volatile("" : "+r"(garbage));
    callsite_f08_run();
    __asm__ volatile("" : "+r"(garbage));
    return garbage == 0;
}
