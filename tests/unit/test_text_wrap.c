/* The stream that keeps the text protocol's lines within a width
 * (src/write/text_wrap.c): where it breaks, and that joining the pieces
 * as readers do gives back the text. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "suites.h"
#include "write/text_wrap.h"

static char *out;

/* `text` through a wrapping stream of `width`, written in pieces of `chunk`. */
static const char *wrap(const char *text, int width, size_t chunk)
{
    size_t len;
    free(out);
    FILE *f = open_memstream(&out, &len);
    FILE *w = mpp_wrap_open(f, width);
    ck_assert_ptr_nonnull(w);
    setvbuf(w, NULL, _IONBF, 0); /* every fwrite reaches the cookie */
    for (size_t at = 0, n = strlen(text); at < n; at += chunk)
        fwrite(text + at, 1, n - at < chunk ? n - at : chunk, w);
    ck_assert_int_eq(fclose(w), 0);
    ck_assert_int_eq(fclose(f), 0);
    return out;
}

/* The pieces joined: "\\", the newline and six blanks removed. */
static char *joined(const char *s)
{
    char *j = strdup(s), *to = j;
    for (const char *from = s; *from;)
        if (!strncmp(from, "\\\n      ", 8))
            from += 8;
        else
            *to++ = *from++;
    *to = '\0';
    return j;
}

static void expect_lines_within(const char *s, size_t width)
{
    for (const char *line = s; *line;) {
        size_t n = strcspn(line, "\n");
        ck_assert_msg(n <= width, "a line of %zu characters: %.*s", n, (int)n, line);
        line += n + (line[n] == '\n');
    }
}

START_TEST(test_text_wrap_breaks_after_a_blank)
{
    /* 60 characters of words, width 50: broken after the last blank that fits */
    const char *text = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda\nshort\n";
    const char *w = wrap(text, 50, 7);
    ck_assert_str_eq(w, "alpha beta gamma delta epsilon zeta eta theta \\\n      iota kappa lambda\nshort\n");
    char *j = joined(w);
    ck_assert_str_eq(j, text);
    free(j);
}
END_TEST

START_TEST(test_text_wrap_cuts_without_blank)
{
    /* no blank far enough from the start: cut at the width, nothing lost */
    char text[400];
    memset(text, 'x', 300);
    strcpy(text + 300, " y  z\n");
    const char *w = wrap(text, 60, 1000);
    expect_lines_within(w, 60);
    ck_assert_int_eq(strncmp(w, text, 59), 0);
    ck_assert_int_eq(w[59], '\\');
    char *j = joined(w);
    ck_assert_str_eq(j, text); /* the double blank too */
    free(j);
}
END_TEST

START_TEST(test_text_wrap_short_and_unterminated)
{
    ck_assert_str_eq(wrap("a\n\nb", 160, 1), "a\n\nb");
    ck_assert_str_eq(wrap("", 160, 1), "");
}
END_TEST

static void teardown(void)
{
    free(out);
    out = NULL;
}

Suite *text_wrap_suite(void)
{
    Suite *s = suite_create("text_wrap");
    TCase *tc = tcase_create("wrap");
    tcase_add_checked_fixture(tc, NULL, teardown);
    tcase_add_test(tc, test_text_wrap_breaks_after_a_blank);
    tcase_add_test(tc, test_text_wrap_cuts_without_blank);
    tcase_add_test(tc, test_text_wrap_short_and_unterminated);
    suite_add_tcase(s, tc);
    return s;
}
