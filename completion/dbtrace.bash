# bash completion for dbtrace. The subcommands and options come from the
# program's own --help, read once per shell, so they never drift from
# the binary's one table of them (src/cmd/commands.c, src/cli/options.c).

_dbtrace_help()
{
	[[ -n ${_dbtrace_help_text-} ]] || _dbtrace_help_text=$(LC_ALL=C "$1" --help 2>/dev/null)
	printf '%s\n' "$_dbtrace_help_text"
}

# "  name ARGS   help" lines between "Commands:" and "Options:"
_dbtrace_commands()
{
	_dbtrace_help "$1" | awk '/^Commands:/ { on = 1; next } /^Options:/ { on = 0 }
		on && /^  [a-z]/ { print $1 }'
}

# every --long option (with "=" when it takes a value) and -x short one
_dbtrace_options()
{
	_dbtrace_help "$1" | awk '/^Options:/ { on = 1; next } on && /^ +-/ {
		for (i = 1; i <= NF; i++) {
			w = $i; sub(/,$/, "", w)
			if (w ~ /^--[a-z]/) { sub(/\[?=.*/, "=", w); print w }
			else if (w ~ /^-[a-zA-Z?]$/) print w
			else break
		} }'
}

_dbtrace()
{
	local cur prev words cword split
	_init_completion -s || return

	local i cmd='' dashdash=0
	for ((i = 1; i < cword; i++)); do
		if [[ ${words[i]} == -- ]]; then
			dashdash=$i
			break
		fi
		[[ -z $cmd && ${words[i]} != -* ]] &&
			_dbtrace_commands "${words[0]}" | grep -qx -- "${words[i]}" && cmd=${words[i]}
	done
	# record -- PROGRAM ARGS: the program's own completion
	if [[ $cmd == record && $dashdash -gt 0 ]]; then
		_command_offset $((dashdash + 1))
		return
	fi

	case $prev in
	-o | --output | --report)
		_filedir
		return ;;
	--root)
		_filedir -d
		return ;;
	-p | --pid)
		_pids
		return ;;
	--view)
		COMPREPLY=($(compgen -W 'cpus classes time net' -- "$cur"))
		return ;;
	--group-by)
		COMPREPLY=($(compgen -W 'parent pid cgroup' -- "$cur"))
		return ;;
	--families)
		local fams='softirq sched clock net loss' prefix=''
		[[ $cur == *,* ]] && prefix=${cur%,*},
		COMPREPLY=($(compgen -P "$prefix" -W "$fams" -- "${cur##*,}"))
		compopt -o nospace
		return ;;
	--attach)
		COMPREPLY=($(compgen -S = -W 'softirq sched clock net loss' -- "$cur"))
		compopt -o nospace
		return ;;
	--clock-syscalls)
		COMPREPLY=($(compgen -W 'count' -- "$cur"))
		return ;;
	-i | --interval | -d | --duration | --sort | --comm | --class | --port | --runq-p99-ms | \
	--futex-pct | --disk-pct | --net-wait-pct | --sample-hz | --clock-vdso-pct | --listen | \
	--top-n | --cgroup)
		return ;;
	esac
	$split && return

	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$(_dbtrace_options "${words[0]}")" -- "$cur"))
		[[ ${COMPREPLY-} == *= ]] && compopt -o nospace
		return
	fi
	case $cmd in
	'')
		COMPREPLY=($(compgen -W "$(_dbtrace_commands "${words[0]}")" -- "$cur")) ;;
	report | diff)
		_filedir json ;;
	record)
		COMPREPLY=($(compgen -W '--' -- "$cur")) ;;
	esac
}
complete -F _dbtrace dbtrace
