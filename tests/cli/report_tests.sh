#!/usr/bin/env bash
# pfa-cli report end to end: a small results file from 'pfa-cli train', its report as PDF (one A4
# page) and HTML (statement, per-group table with intervals, rerun command), the rerun command
# reproducing the run, and clear errors. Usage: report_tests.sh PFA_CLI WORK_DIR
set -euo pipefail
cli=$(realpath "$1")
work=$2
mkdir -p "$work"
cd "$work"
rm -f ./*.jsonl ./*.pdf ./*.html ./*.log

fail() { echo "FAIL: $*" >&2; exit 1; }
expect_status() {  # expect_status CODE COMMAND...: runs it, stdout into out.log, stderr into err.log
    local want=$1
    shift
    local got=0
    "$@" > out.log 2> err.log || got=$?
    [ "$got" -eq "$want" ] || { cat out.log err.log >&2; fail "exit status $got, expected $want: $*"; }
}

"$cli" train --synthetic-rows 2000 --epsilon 1,inf --lambda 0,2 --epochs 4 --lr-theta 0.2 --quiet \
    --threads 1 --out runs.jsonl > /dev/null 2>&1
[ "$(wc -l < runs.jsonl)" -eq 4 ] || fail "expected 4 runs in runs.jsonl"
# The private run at lambda = 2 (its line number; --run takes it).
private=$(grep -n '"epsilon":1,.*"lambda":2,' runs.jsonl | cut -d: -f1)
[ -n "$private" ] || fail "no private run at lambda = 2 in runs.jsonl"

# PDF: a PDF file of exactly one page.
expect_status 0 "$cli" report runs.jsonl --out report.pdf --run $private
grep -q "report of run $private of 4 in runs.jsonl (completed) written to report.pdf" out.log || fail "$(cat out.log)"
[ "$(head -c 5 report.pdf)" = "%PDF-" ] || fail "report.pdf is not a PDF"
if command -v pdfinfo > /dev/null; then
    pages=$(pdfinfo report.pdf | awk '/^Pages:/ { print $2 }')
    [ "$pages" = "1" ] || fail "report.pdf has $pages pages, expected 1"
    info=$(pdfinfo report.pdf)
    grep -q "A4" <<< "$info" || fail "report.pdf is not A4"
else
    echo "note: pdfinfo (poppler-utils) not installed: the page count is not checked"
fi

# The default output is RESULTS.pdf beside the results file, for the last completed run.
expect_status 0 "$cli" report runs.jsonl
[ -s runs.pdf ] || fail "no runs.pdf"
grep -q "run 4 of 4" out.log || fail "the default is not the last run: $(cat out.log)"

# HTML: the privacy statement, the per-group table with intervals, the ledger, the command.
expect_status 0 "$cli" report runs.jsonl --out report.html --run $private --bootstrap 500 --seed 3
grep -q "<b>Guarantee: (ε = " report.html || fail "no guarantee in report.html"
grep -q "Privacy statement — dp-fermi" report.html || fail "no privacy statement in report.html"
grep -q "<th>Selection rate</th>" report.html || fail "no per-group table in report.html"
grep -Eq "<td>0\.[0-9]{3}<br><span class=\"small\">\[0\.[0-9]{3}, 0\.[0-9]{3}\]</span></td>" report.html ||
    fail "no rate with an interval in report.html"
grep -q "percentile bootstrap, 500 resamples (seed 3)" report.html || fail "the interval method is not stated"
grep -q "test rows only" report.html || fail "the report does not say what the interval covers"
grep -q "by RDP composition of 2 runs" report.html || fail "no ledger total in report.html"
grep -q "<svg" report.html || fail "no chart in report.html"
# The same seed gives the same intervals.
cp report.html first.html
expect_status 0 "$cli" report runs.jsonl --out report.html --run $private --bootstrap 500 --seed 3
diff <(grep -v "generated\|UTC" first.html) <(grep -v "generated\|UTC" report.html) > /dev/null ||
    fail "the same seed gave other intervals"

# The rerun command reproduces the run: same run key, same test error.
command=$(sed -n 's:.*<code>\(pfa-cli train.*\)</code>.*:\1:p' report.html)
[ -n "$command" ] || fail "no rerun command in report.html"
read -r -a words <<< "${command/--out rerun.jsonl/--out rerun.jsonl --quiet}"
"$cli" "${words[@]:1}" > /dev/null 2>&1 || fail "the rerun command failed: $command"
key=$(sed -n "${private}p" runs.jsonl | grep -o '"run_key":"[^"]*"')
[ "$(grep -o '"run_key":"[^"]*"' rerun.jsonl)" = "$key" ] || fail "the rerun has another run key: $command"
error=$(sed -n "${private}p" runs.jsonl | grep -o '"test_error":[^,]*')
[ "$(grep -o '"test_error":[^,]*' rerun.jsonl)" = "$error" ] || fail "the rerun has another test error"

# A run whose rates are not a 2x2 table's: reported without intervals, saying why.
sed -n 1p runs.jsonl | sed 's/"accuracy":0\.[0-9]*/"accuracy":0.5/' > multi.jsonl
expect_status 0 "$cli" report multi.jsonl --out multi.html
grep -q "No confidence intervals: group .* more than two classes" multi.html || fail "no reason in multi.html"
grep -q "note: no confidence intervals" out.log || fail "the CLI does not say there are no intervals"

# Errors: one line, a clear reason.
expect_status 2 "$cli" report missing.jsonl
grep -q "no result records (missing or empty file)" err.log || fail "missing file: $(cat err.log)"
echo "not json" > bad.jsonl
expect_status 2 "$cli" report bad.jsonl
grep -q "is not a results file" err.log || fail "bad file: $(cat err.log)"
expect_status 2 "$cli" report runs.jsonl --run 9
grep -q "the file holds runs 1 to 4" err.log || fail "bad --run: $(cat err.log)"
expect_status 2 "$cli" report runs.jsonl --out report.txt
grep -q "written as .pdf or .html" err.log || fail "bad --out: $(cat err.log)"
expect_status 2 "$cli" report runs.jsonl --bootstrap 10
grep -q "between 100 and 1000000" err.log || fail "bad --bootstrap: $(cat err.log)"
expect_status 2 "$cli" report
grep -q "needs a results file" err.log || fail "no file: $(cat err.log)"
expect_status 0 "$cli" report --help
grep -q "test rows only" out.log || fail "help: $(cat out.log)"
echo "report tests passed"
