#include "model/syscall_name.h"

static const char *const names[] = {
#include "model/syscall_names.h"   /* generated in build/ */
};

const char *syscall_name(int nr)
{
	if (nr < 0 || (unsigned)nr >= sizeof(names) / sizeof(names[0]))
		return 0;
	return names[nr];
}
