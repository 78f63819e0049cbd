/* JSON strings from C text that may not be UTF-8. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "write/process_data.h"

/* A JSON string from text that may not be UTF-8 (paths, command lines,
 * interval names): invalid bytes become '?' instead of losing the value. */
json_t *mpp_json_text(const char *s)
{
    json_t *j = json_string(s ? s : "");
    if (j)
        return j;
    size_t n = strlen(s);
    char *copy = malloc(n + 1);
    if (!copy)
        return json_string("?");
    const unsigned char *u = (const unsigned char *)s;
    size_t i = 0, o = 0;
    while (i < n) {
        int len = u[i] < 0x80 ? 1 : (u[i] >> 5) == 6 ? 2 : (u[i] >> 4) == 14 ? 3 : (u[i] >> 3) == 30 ? 4 : 0;
        int ok = len > 0 && i + (size_t)len <= n;
        for (int k = 1; ok && k < len; k++)
            ok = (u[i + k] & 0xC0) == 0x80;
        if (ok) {
            memcpy(copy + o, s + i, (size_t)len);
            o += (size_t)len, i += (size_t)len;
        } else {
            copy[o++] = '?', i++;
        }
    }
    copy[o] = '\0';
    j = json_string(copy);
    free(copy);
    return j ? j : json_string("?");
}
