/* libFuzzer: the sysfs choice lists of transparent huge pages
 * ("always [madvise] never"), as check reads them from any tree. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "sysinfo/thp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char out[DBT_THP_VALUE_MAX], tiny[4];

	/* not NUL-terminated: the parser takes a length */
	if (!dbt_thp_parse_choice((const char *)data, size, out, sizeof(out)) &&
	    strnlen(out, sizeof(out)) == sizeof(out))
		abort();
	dbt_thp_parse_choice((const char *)data, size, tiny, sizeof(tiny));
	return 0;
}
