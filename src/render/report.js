// The report's script, at the end of the page: draws the softirq heatmap
// from the data embedded beside its canvas, makes the tables sortable
// (a click on a column's title), and unfolds the classes an "other" row
// or chart holds (a click on it). Embedded at build time (scripts/embed.sh).
(function () {
	'use strict';

	function color(v, max) {
		if (v === null)
			return '#d9d9d9';
		var x = max > 0 ? Math.min(v / max, 1) : 0;
		var h = 60 - 60 * x, l = 97 - 52 * x;
		return 'hsl(' + h.toFixed(0) + ',90%,' + l.toFixed(0) + '%)';
	}

	function heatmap() {
		var el = document.getElementById('heat-data');
		if (!el)
			return;
		var d = JSON.parse(el.textContent), cv = document.getElementById('heat-canvas'),
			sel = document.getElementById('heat-vector'), tip = document.getElementById('heat-tip'),
			leg = document.getElementById('heat-legend');
		var cols = d.t.length, rows = d.cpus.length, left = 56, bottom = 22,
			cw = Math.max(2, Math.min(120, Math.floor(1000 / Math.max(cols, 1)))),
			rh = Math.max(6, Math.min(28, Math.floor(420 / Math.max(rows, 1))));
		cv.width = left + cols * cw + 4;
		cv.height = rows * rh + bottom;
		var cx = cv.getContext('2d');

		function draw() {
			var k = sel.value, s = d.series[k], max = d.max[k] > 1 ? d.max[k] : 1;
			cx.clearRect(0, 0, cv.width, cv.height);
			cx.font = '11px sans-serif';
			cx.fillStyle = '#333';
			for (var r = 0; r < rows; r++) {
				cx.fillStyle = '#333';
				cx.fillText('CPU ' + d.cpus[r], 4, r * rh + rh / 2 + 4);
				for (var c = 0; c < cols; c++) {
					cx.fillStyle = color(s[c][r], max);
					cx.fillRect(left + c * cw, r * rh, cw, rh - 1);
				}
			}
			cx.fillStyle = '#333';
			var step = Math.max(1, Math.ceil(cols / 10));
			for (var c2 = 0; c2 < cols; c2 += step)
				cx.fillText(d.t[c2].toFixed(0) + 's', left + c2 * cw, rows * rh + 15);
			leg.textContent = '0% .. ' + max.toFixed(1) + '% of wall time (' + k + ')';
		}

		sel.addEventListener('change', draw);
		cv.addEventListener('mousemove', function (e) {
			var b = cv.getBoundingClientRect(), c = Math.floor((e.clientX - b.left - left) / cw),
				r = Math.floor((e.clientY - b.top) / rh);
			if (c < 0 || c >= cols || r < 0 || r >= rows) {
				tip.style.display = 'none';
				return;
			}
			var v = d.series[sel.value][c][r];
			tip.textContent = 'CPU ' + d.cpus[r] + ' · t ' + d.t[c].toFixed(1) + ' s · ' + sel.value + ' ' +
				(v === null ? 'not measured' : v.toFixed(2) + '%');
			tip.style.display = 'block';
			tip.style.left = (e.clientX - b.left + 12) + 'px';
			tip.style.top = (e.clientY - b.top + 12) + 'px';
		});
		cv.addEventListener('mouseleave', function () {
			tip.style.display = 'none';
		});
		draw();
		cv.setAttribute('data-drawn', String(cols) + 'x' + String(rows));
	}

	function sortable() {
		var ths = document.querySelectorAll('th.sortable');
		Array.prototype.forEach.call(ths, function (th) {
			th.addEventListener('click', function () {
				var table = th.closest('table'), tb = table.tBodies[0],
					i = Array.prototype.indexOf.call(th.parentNode.children, th),
					asc = th.getAttribute('data-dir') !== 'asc';
				th.setAttribute('data-dir', asc ? 'asc' : 'desc');
				var rows = Array.prototype.slice.call(tb.rows);
				rows.sort(function (a, b) {
					// the "other" row stays last
					var oa = a.classList.contains('other'), ob = b.classList.contains('other');
					if (oa !== ob)
						return oa ? 1 : -1;
					var x = a.cells[i].getAttribute('data-v'), y = b.cells[i].getAttribute('data-v');
					if (x !== null && y !== null) {
						var p = x === '' ? -Infinity : parseFloat(x), q = y === '' ? -Infinity : parseFloat(y);
						return asc ? p - q : q - p;
					}
					x = a.cells[i].textContent;
					y = b.cells[i].textContent;
					return asc ? x.localeCompare(y) : y.localeCompare(x);
				});
				rows.forEach(function (r) {
					tb.appendChild(r);
				});
			});
		});
	}

	// the rows and charts of the classes folded into "other" show on a
	// click on it, and hide on the next
	function unfold() {
		var others = document.querySelectorAll('tr.other, figure.other');
		Array.prototype.forEach.call(others, function (el) {
			el.addEventListener('click', function () {
				el.closest('table, .hists').classList.toggle('all');
			});
		});
	}

	heatmap();
	sortable();
	unfold();
	document.body.setAttribute('data-ready', '1');
})();
