package testtrees

import (
	"bufio"
	"bytes"
	"strconv"
	"strings"
	"testing"
)

// ReportMetrics reports, as the benchmark's own figures, the lines
// "METRIC name value" of out: what a child process (a test run in virtual
// time, see testing/synctest) printed for the benchmark that started it.
// It fails the benchmark on a malformed value or when out holds none.
func ReportMetrics(b *testing.B, out []byte) {
	b.Helper()
	sc := bufio.NewScanner(bytes.NewReader(out))
	n := 0
	for sc.Scan() {
		line, ok := strings.CutPrefix(sc.Text(), "METRIC ")
		if !ok {
			continue
		}
		name, value, _ := strings.Cut(line, " ")
		v, err := strconv.ParseFloat(value, 64)
		if err != nil {
			b.Fatalf("metric %q", sc.Text())
		}
		b.ReportMetric(v, name)
		n++
	}
	if n == 0 {
		b.Fatalf("no figures in:\n%s", out)
	}
}
