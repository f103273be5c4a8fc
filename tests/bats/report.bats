#!/usr/bin/env bats
# `dbtrace report`: a capture taken here becomes one self-contained HTML
# page, rendered by headless Chromium (Debian's) to a screenshot and to
# its DOM after the page's script ran: no script error, every section,
# the heatmap drawn over every interval and CPU, the numbers of the
# capture in the tables. Chromium runs without background networking and
# with every host name unresolvable, so nothing can leave the machine.

load helpers/common
bats_require_minimum_version 1.5.0

setup() { make_scratch; }
teardown() { teardown_scratch; }

# Debian's chromium is installed by make test; the qemu guest of
# scripts/vmtest.sh does not carry it.
need_chromium() {
	command -v chromium >/dev/null && return 0
	[ "${DBTRACE_VM:-0}" = 1 ] && skip "chromium is not in the VM guest"
	echo "chromium not found: install Debian's chromium package (make test does)" >&2
	return 1
}

# chrome OUTPUT_PREFIX PAGE: screenshot (PREFIX.png), DOM after the
# scripts ran (PREFIX.dom) and the browser's log with the page's console
# (PREFIX.log).
chrome() {
	local out="$1" page="$2"
	timeout 60 chromium --headless --no-sandbox --disable-gpu \
		--disable-background-networking --disable-component-update --disable-sync \
		--disable-default-apps --disable-extensions --disable-domain-reliability \
		--disable-client-side-phishing-detection --no-pings --disable-breakpad \
		--no-first-run --no-default-browser-check \
		--host-resolver-rules="MAP * ~NOTFOUND" \
		--user-data-dir="$SCRATCH/chrome-profile" \
		--enable-logging=stderr --v=0 \
		--window-size=1280,3000 --screenshot="$out.png" \
		--dump-dom "file://$page" >"$out.dom" 2>"$out.log"
}

# No script error: none logged to the console, none counted by the page,
# and the page's script ran to its end.
assert_no_script_errors() {
	local out="$1"
	if grep -E 'CONSOLE.*(Uncaught|Error)|Refused to|Failed to load' "$out.log"; then
		return 1
	fi
	refute grep -q 'data-js-errors=' "$out.dom"
	grep -q '<body data-ready="1"' "$out.dom"
}

# A PNG of the window's width.
assert_png() {
	[ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]
	# IHDR width, big-endian, at byte 16
	[ "$(od -An -tu1 -j16 -N4 "$1" | awk '{ print $1 * 16777216 + $2 * 65536 + $3 * 256 + $4 }')" = 1280 ]
	[ "$(stat -c %s "$1")" -gt 20000 ]
}

@test "a capture under loopback load renders in headless Chromium with every section and no script error" {
	local cap="$SCRATCH/run.json" page="$SCRATCH/run.html" port req ncpu nint nf
	need_chromium
	start_bg "$SCRATCH/err" "$DBTRACE" capture -d 3 -i 1 -o "$cap"
	wait_for_text "$SCRATCH/err" "capturing to" "$LIMIT"
	"$TOOLS/tcp_rr" -d 2 -c "$LOAD_CPU" -S "$LOAD_CPU" >"$SCRATCH/rr"
	wait "$BG_PID"
	BG_PID=
	port="$(sed -n 's/.*transactions=.* port=\([0-9]*\).*/\1/p' "$SCRATCH/rr")"

	run "$DBTRACE" report "$cap" -o "$page"
	[ "$status" -eq 0 ]
	[ "$output" = "dbtrace: wrote $page" ]
	# only the capture, the page and the load's output: no temporary file
	[ "$(ls -A "$SCRATCH" | sort | tr '\n' ' ')" = "err rr run.html run.json " ]
	# self-contained: no URL at all, and a policy that forbids fetching
	refute grep -Eq 'https?://|url\(|@import| src=' "$page"
	grep -q "Content-Security-Policy\" content=\"default-src 'none';" "$page"

	chrome "$SCRATCH/shot" "$page"
	assert_png "$SCRATCH/shot.png"
	assert_no_script_errors "$SCRATCH/shot"

	# the heatmap was drawn over every interval and every CPU
	nint="$(jq '.intervals | length' "$cap")"
	ncpu="$(jq '[.intervals[].cpus[].cpu] | unique | length' "$cap")"
	grep -q "id=\"heat-canvas\"[^>]*data-drawn=\"${nint}x${ncpu}\"" "$SCRATCH/shot.dom"
	for id in findings heatmap cpus classes net clock; do
		grep -q "<section id=\"$id\">" "$SCRATCH/shot.dom"
	done
	# every finding with its evidence
	nf="$(jq '.findings | length' "$cap")"
	[ "$(grep -o '<article class="finding' "$SCRATCH/shot.dom" | wc -l)" -eq "$nf" ]
	[ "$(grep -o '<dl class="ev">' "$SCRATCH/shot.dom" | wc -l)" -eq "$nf" ]
	# the load's process in the class table, its port in the port table,
	# and the port's response-time histogram counting every request (its
	# bars a weighted sample under this load: within 5% of them)
	grep -q '<td>tcp_rr</td>' "$SCRATCH/shot.dom"
	req="$(jq --argjson p "$port" '.net.ports[] | select(.port == $p and .role == "server") | .requests' "$cap")"
	echo "port $port: $req requests"
	[ "$req" -gt 1000 ]
	grep -q "<td class=\"n\" data-v=\"$port\">$port</td><td>server</td><td class=\"n\" data-v=\"$req\">" "$SCRATCH/shot.dom"
	grep -q "<figcaption>response time: $port/server<br><small>$req requests;" "$SCRATCH/shot.dom"
	local total
	total="$(grep -A1 "<figcaption>response time: $port/server<br>" "$SCRATCH/shot.dom" |
		sed -n 's/.*data-total="\([0-9]*\)".*/\1/p' | head -1)"
	echo "histogram total $total"
	within_pct "$total" "$req" 5

	# negative control: the same checks catch a script error
	sed 's/^\(\s*\)sortable();$/\1sortable(); noSuchFunction();/' "$page" >"$SCRATCH/broken.html"
	! cmp -s "$page" "$SCRATCH/broken.html"
	chrome "$SCRATCH/broken" "$SCRATCH/broken.html"
	run assert_no_script_errors "$SCRATCH/broken"
	[ "$status" -ne 0 ]
	grep -q 'data-js-errors="1"' "$SCRATCH/broken.dom"
}

@test "a capture without the net and clock families renders and says why they are missing" {
	local page="$SCRATCH/old.html"
	need_chromium
	cp "$REPO/tests/fixtures/captures/rr-no-net-clock.json" "$SCRATCH/old.json"
	"$DBTRACE" report "$SCRATCH/old.json" 2>/dev/null
	[ -f "$page" ]    # the default name: the capture's, .html
	chrome "$SCRATCH/old" "$page"
	assert_no_script_errors "$SCRATCH/old"
	grep -q 'No network numbers in this capture: the net probes did not attach' "$SCRATCH/old.dom"
	grep -q 'No clock numbers in this capture: the clock probes did not attach' "$SCRATCH/old.dom"
	grep -q '<table id="class-table">' "$SCRATCH/old.dom"
}

# The class tables and the budget charts rank classes by cost (runnable:
# thread-seconds on a CPU and waiting for one), busiest first; the idle
# ones (time_a.json's main thread: 0.2% of a CPU) are one "other" row and
# chart, a click on which shows them; --all lists every class.
@test "idle classes are one \"other\" row a click unfolds; --all lists them all" {
	local page="$SCRATCH/t.html" row
	need_chromium
	cp "$REPO/tests/fixtures/captures/time_a.json" "$SCRATCH/t.json"
	"$DBTRACE" report "$SCRATCH/t.json" 2>/dev/null
	row='<td class="n" data-v="3421197">3421197</td><td>time_classes</td><td>time_classes</td>'
	grep -q '<td>other (1 class)</td>' "$page"
	grep -q "<tr class=\"folded\">$row" "$page"
	# the busiest first
	grep -o '<td>time_classes</td><td>[^<]*</td>' "$page" | head -3 | cut -d'>' -f4 | cut -d'<' -f1 |
		paste -sd' ' | grep -qx 'locker-\* spin diskrd'
	# a click on the row and on the chart shows what they fold
	head -n -1 "$page" >"$SCRATCH/click.html"
	cat >>"$SCRATCH/click.html" <<'EOF'
<script>
function shown(sel) { return getComputedStyle(document.querySelector(sel)).display; }
var before = shown('#class-table tr.folded') + ',' + shown('figure.folded');
document.querySelector('#class-table tr.other').click();
document.querySelector('figure.other').click();
document.body.setAttribute('data-unfold', before + '/' + shown('#class-table tr.folded') + ',' + shown('figure.folded'));
</script>
</body></html>
EOF
	chrome "$SCRATCH/click" "$SCRATCH/click.html"
	assert_no_script_errors "$SCRATCH/click"
	grep -q 'data-unfold="none,none/table-row,block"' "$SCRATCH/click.dom"

	run "$DBTRACE" report --all "$SCRATCH/t.json" -o "$SCRATCH/all.html"
	[ "$status" -eq 0 ]
	! grep -q 'class="other"\|class="folded"' "$SCRATCH/all.html"
	grep -q "<tr>$row" "$SCRATCH/all.html"
}

@test "bad input: one line, exit 2, no file written and an existing report kept" {
	local good="$REPO/tests/fixtures/captures/rr.json"
	cd "$SCRATCH"
	echo "keep me" >existing.html

	run -2 "$DBTRACE" report missing.json -o out.html
	[ "$output" = "dbtrace: cannot read missing.json: No such file or directory" ]
	echo '{"schema": "dbtrace.check/1", "findings": []}' >check.json
	run -2 "$DBTRACE" report check.json -o existing.html
	[ "$output" = "dbtrace: check.json is not a dbtrace capture: schema \"dbtrace.check/1\", want \"dbtrace.capture/2\"" ]
	head -c 20000 "$good" >cut.json
	run -2 "$DBTRACE" report cut.json -o existing.html
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == "dbtrace: cut.json is not a dbtrace capture: "* ]]
	run -2 "$DBTRACE" report "$good" -o /nonexistent/dir/out.html
	[ "$output" = "dbtrace: cannot write /nonexistent/dir/out.html: No such file or directory (cannot create a file in its directory)" ]
	mkdir adir
	run -2 "$DBTRACE" report "$good" -o adir
	[ "$output" = "dbtrace: cannot write adir: it is a directory" ]
	cp "$good" same.json
	run -2 "$DBTRACE" report same.json -o ./same.json
	[ "$output" = "dbtrace: refusing to write the report over the capture same.json" ]
	run -2 "$DBTRACE" report
	[ "${#lines[@]}" -eq 1 ]

	[ "$(cat existing.html)" = "keep me" ]
	[ "$(ls -A | sort | tr '\n' ' ')" = "adir check.json cut.json existing.html same.json " ]
	cmp same.json "$good"
}

@test "a report replaces an existing file only when complete" {
	cd "$SCRATCH"
	echo "old" >r.html
	run "$DBTRACE" report "$REPO/tests/fixtures/captures/tbf.json" -o r.html
	[ "$status" -eq 0 ]
	grep -q '^<!DOCTYPE html>' r.html
	tail -1 r.html | grep -q '</body></html>'
	[ "$(stat -c %a r.html)" = 644 ]
	[ "$(ls -A)" = r.html ]
}
