// Counts script errors on the page (a test reads the attribute); in the
// head, before anything else runs.
window.dbtErrors = [];
window.addEventListener('error', function (e) {
	window.dbtErrors.push(String(e.message));
	document.documentElement.setAttribute('data-js-errors', String(window.dbtErrors.length));
});
