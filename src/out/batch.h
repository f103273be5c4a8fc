/* `top --batch`: the tables as plain text, one block per interval. */
#ifndef DBTRACE_OUT_BATCH_H
#define DBTRACE_OUT_BATCH_H

#include <stdbool.h>
#include <stdio.h>
#include "model/interval.h"

int batch_print(FILE *out, const struct interval_view *iv, bool classes, char sort_key);

#endif
