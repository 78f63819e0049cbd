/* The protocol a command is given (mpiprof-view, mpiprof-compare): a JSON
 * protocol, a text protocol (read through its JSON sibling, PATH.json,
 * which MPIPROF_FORMAT=both, json or all writes next to it: the text
 * rounds every number), or a directory that holds exactly one protocol. */
#ifndef MPP_TOOLS_PROTOCOL_INPUT_H
#define MPP_TOOLS_PROTOCOL_INPUT_H

#include <stddef.h>

typedef struct {
    char json[4200]; /* the JSON file to read */
    char text[4200]; /* the text protocol it is the sibling of, or "" */
    char note[4400]; /* how it was found when not as given (" (the JSON sibling of ...)"), or "" */
} mpp_protocol_input_t;

/* What `given` names, into *in; 0, or -1 with why in `why` (the path, what
 * it is, and what is accepted; for a directory, the protocols or files it
 * holds).  The JSON file is not parsed here: only found. */
int mpp_protocol_input(const char *given, mpp_protocol_input_t *in, char *why, size_t size);

#endif
