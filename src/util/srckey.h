/* The identity of an SRC point across processes: the MPI function's name and
 * its resolved call stack, as one string.  Independent of where libraries were
 * loaded, so the same call site has the same key on every process.
 *
 *   key   = FUNCTION ( RS frame )*
 *   frame = path US line US function US text     (RS = \x1e, US = \x1f)
 *
 * `text` is what the protocol prints: "jacobi.c:88 (exchange)", or
 * "module+0xOFFSET" when the frame could not be resolved. */
#ifndef MPP_SRCKEY_H
#define MPP_SRCKEY_H

#define MPP_RS '\x1e'
#define MPP_US '\x1f'

typedef struct {
    char *path;
    int line;       /* 0: unknown */
    char *function; /* "" : unknown */
    char *file;     /* base name of path */
    char *text;
} mpp_frame_t;

/* Split a key into function name and frames (allocated; free with
 * mpp_srckey_free_frames: the frames' strings live in the frames' block and
 * are never freed or replaced one by one).  Returns the number of frames. */
int mpp_srckey_parse(const char *key, char **function, mpp_frame_t **frames);
void mpp_srckey_free_frames(mpp_frame_t *frames, int n);

#endif
