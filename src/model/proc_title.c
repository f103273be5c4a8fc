#include "model/proc_title.h"

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* A word that says "this process serves one client". */
static bool is_endpoint(const char *w, size_t n)
{
	size_t open;

	if ((n == 7 && !memcmp(w, "[local]", 7)) || (n > 7 && !memcmp(w, "(LOCAL=", 7)))
		return true;
	if (n < 4 || w[n - 1] != ')')
		return false;
	for (open = n - 1; open > 0 && isdigit((unsigned char)w[open - 1]); open--)
		;
	return open > 1 && open < n - 1 && w[open - 1] == '(';
}

/* A word from which a role stops being a role: an instance number, a
 * path, an option. */
static bool ends_role(const char *w, size_t n)
{
	if (w[0] == '-')
		return true;
	for (size_t i = 0; i < n; i++)
		if (isdigit((unsigned char)w[i]) || w[i] == '/')
			return true;
	return false;
}

static size_t word_end(const char *s, size_t i, size_t n)
{
	while (i < n && s[i] != ' ')
		i++;
	return i;
}

static size_t skip_blanks(const char *s, size_t i, size_t n)
{
	while (i < n && s[i] == ' ')
		i++;
	return i;
}

int proc_title_class(const char *cmdline, size_t len, char *out, size_t outlen)
{
	const char *colon;
	size_t n, name_len, role_end = 0, i;
	bool client = false, titled;

	if (!cmdline || !out || !outlen)
		return -EINVAL;
	out[0] = '\0';
	n = strnlen(cmdline, len);
	while (n && (cmdline[n - 1] == ' ' || cmdline[n - 1] == '\t'))
		n--;
	/* NAME: one word, no path, then ": " */
	colon = memchr(cmdline, ':', n);
	titled = colon && colon > cmdline && (size_t)(colon - cmdline) + 1 < n && colon[1] == ' ' &&
		 !memchr(cmdline, ' ', (size_t)(colon - cmdline)) &&
		 !memchr(cmdline, '/', (size_t)(colon - cmdline));
	name_len = titled ? (size_t)(colon - cmdline) : word_end(cmdline, 0, n);
	i = titled ? name_len + 1 : name_len;
	/* the words after NAME */
	while ((i = skip_blanks(cmdline, i, n)) < n) {
		size_t e = word_end(cmdline, i, n);

		if (is_endpoint(cmdline + i, e - i)) {
			client = true;
			break;
		}
		if (titled && !role_end && ends_role(cmdline + i, e - i))
			role_end = i;
		i = e;
	}
	if (client) {
		snprintf(out, outlen, "%.*s: backend", (int)name_len, cmdline);
		return 1;
	}
	if (!titled)
		return 0;
	if (!role_end)
		role_end = n;
	while (role_end > name_len + 1 && cmdline[role_end - 1] == ' ')
		role_end--;
	if (role_end <= name_len + 1)
		return 0;   /* "NAME: 42": no role left */
	snprintf(out, outlen, "%.*s", (int)role_end, cmdline);
	return 1;
}
