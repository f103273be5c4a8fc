#!/usr/bin/env bash
# Fails when a file includes a header of a higher layer: arrows point
# only downwards (docs/architecture.md draws the layers). `make layers`
# runs it, and so does `make test`.
#
# The layers, top first. A folder may include its own headers and any
# folder below it, never one above it.
set -euo pipefail
cd "$(dirname "$0")/.."

LAYERS=(main cmd render metrics capture session cli collect findings figures model sysinfo core dbtrace)

rank() {
	local i
	for i in "${!LAYERS[@]}"; do
		[ "${LAYERS[$i]}" = "$1" ] && { echo "$i"; return; }
	done
	echo -1
}

bad=0
while IFS= read -r file; do
	case "$file" in
	src/main.c) from=main ;;
	src/*/*) from=${file#src/}; from=${from%%/*} ;;
	include/dbtrace/*) from=dbtrace ;;
	*) continue ;;
	esac
	rf=$(rank "$from")
	if [ "$rf" -lt 0 ]; then
		echo "$file: folder '$from' is in no layer (add it to scripts/check-layers.sh and docs/architecture.md)"
		bad=1
		continue
	fi
	while IFS= read -r inc; do
		to=${inc%%/*}
		# generated skeletons (build/*.skel.h) belong to the collectors
		if [[ "$inc" == *.skel.h ]]; then
			[ "$from" = collect ] || { echo "$file: includes skeleton $inc outside src/collect"; bad=1; }
			continue
		fi
		[[ "$inc" == */* ]] || { echo "$file: include \"$inc\" names no layer folder"; bad=1; continue; }
		rt=$(rank "$to")
		if [ "$rt" -lt 0 ]; then
			echo "$file: includes \"$inc\" from no known layer"
			bad=1
		elif [ "$rt" -lt "$rf" ]; then
			echo "$file: includes \"$inc\": $from may not include $to, a higher layer"
			bad=1
		fi
	done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$file")
done < <(git ls-files 'src/*.c' 'src/*.h' 'include/*.h'; git ls-files --others --exclude-standard 'src/*.c' 'src/*.h' 'include/*.h')

if [ "$bad" -ne 0 ]; then
	echo "check-layers: includes must point downwards: ${LAYERS[*]}" >&2
	exit 1
fi
echo "check-layers: every include points downwards (${LAYERS[*]})"
