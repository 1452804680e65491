package sandbox

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// FaultKind is a kind of injected fault.
type FaultKind string

// Fault kinds. A status fault answers with that HTTP status (500–599, or 429)
// and the matching error body; the others damage an otherwise good response.
const (
	// FaultCut sends the headers and about half the body, then closes the
	// connection.
	FaultCut FaultKind = "cut"
	// FaultSlow sends about half the body, waits Fault.Delay, then the rest.
	FaultSlow FaultKind = "slow"
	// FaultHTML answers 200 with an HTML page instead of JSON, as a
	// misconfigured proxy would.
	FaultHTML FaultKind = "html"
	// FaultInvalidJSON answers 200 with a truncated JSON body and a correct
	// Content-Length.
	FaultInvalidJSON FaultKind = "invalid-json"
)

// Fault is one kind of fault injected into a share of requests.
type Fault struct {
	// Kind is a FaultKind, or a status code such as "500", "503" or "429".
	Kind FaultKind
	// Rate is the probability, from 0 to 1, that a request gets this fault.
	Rate float64
	// RetryAfter, for status faults, is sent as the Retry-After header when
	// positive.
	RetryAfter time.Duration
	// Delay, for FaultSlow, is the pause in the middle of the body.
	Delay time.Duration
}

// status returns the HTTP status of a status fault, or 0.
func (f Fault) status() int {
	n, err := strconv.Atoi(string(f.Kind))
	if err != nil {
		return 0
	}
	return n
}

// String formats f the way ParseFaults reads it.
func (f Fault) String() string {
	s := fmt.Sprintf("%s=%g", f.Kind, f.Rate)
	switch {
	case f.RetryAfter > 0:
		s += ":" + f.RetryAfter.String()
	case f.Delay > 0:
		s += ":" + f.Delay.String()
	}
	return s
}

// Faults is a list of faults; their rates add up to at most 1.
type Faults []Fault

// String formats fs the way ParseFaults reads it.
func (fs Faults) String() string {
	parts := make([]string, len(fs))
	for i, f := range fs {
		parts[i] = f.String()
	}
	return strings.Join(parts, ",")
}

// ParseFaults reads a comma-separated list of KIND=RATE[:ARG], for example
// "500=0.05,503=0.02:2s,cut=0.01,slow=0.01:5s". KIND is a status from 500
// to 599 or 429 (ARG: the Retry-After to send, omitted when absent), cut,
// slow (ARG: the pause, default 2s), html or invalid-json. RATE is a
// probability from 0 to 1 and all rates add up to at most 1.
func ParseFaults(s string) (Faults, error) {
	s = strings.TrimSpace(s)
	if s == "" || s == "none" {
		return nil, nil
	}
	var fs Faults
	total := 0.0
	for part := range strings.SplitSeq(s, ",") {
		part = strings.TrimSpace(part)
		kind, rest, ok := strings.Cut(part, "=")
		if !ok {
			return nil, fmt.Errorf("fault %q: want KIND=RATE[:ARG], such as 503=0.05:2s", part)
		}
		rate, arg, _ := strings.Cut(rest, ":")
		f := Fault{Kind: FaultKind(strings.ToLower(strings.TrimSpace(kind)))}
		r, err := strconv.ParseFloat(strings.TrimSpace(rate), 64)
		if err != nil || math.IsNaN(r) || r < 0 || r > 1 {
			return nil, fmt.Errorf("fault %q: rate must be a number from 0 to 1", part)
		}
		f.Rate = r
		var d time.Duration
		if arg != "" {
			if d, err = time.ParseDuration(arg); err != nil || d < 0 {
				return nil, fmt.Errorf("fault %q: %q is not a duration such as 2s", part, arg)
			}
		}
		switch code := f.status(); {
		case code == 429 || (code >= 500 && code <= 599):
			f.RetryAfter = d
		case f.Kind == FaultSlow:
			f.Delay = d
			if f.Delay == 0 {
				f.Delay = 2 * time.Second
			}
		case f.Kind == FaultCut || f.Kind == FaultHTML || f.Kind == FaultInvalidJSON:
			if arg != "" {
				return nil, fmt.Errorf("fault %q: %s takes no argument", part, f.Kind)
			}
		default:
			return nil, fmt.Errorf("fault %q: unknown kind %q (want a status 500-599 or 429, cut, slow, html or invalid-json)", part, kind)
		}
		total += f.Rate
		fs = append(fs, f)
	}
	if total > 1+1e-9 {
		return nil, fmt.Errorf("faults %q: rates add up to %g, more than 1", s, total)
	}
	return fs, nil
}

// pick returns the fault for the attempt-th request to key under seed, or
// nil. The draw depends only on its arguments, so a run is repeatable
// whatever order concurrent requests arrive in.
func (fs Faults) pick(seed int64, key string, attempt int) *Fault {
	if len(fs) == 0 {
		return nil
	}
	h := sha256.New()
	var b [16]byte
	binary.LittleEndian.PutUint64(b[:8], uint64(seed))
	binary.LittleEndian.PutUint64(b[8:], uint64(attempt))
	h.Write(b[:])
	h.Write([]byte(key))
	x := float64(binary.LittleEndian.Uint64(h.Sum(nil))>>11) / (1 << 53) // uniform in [0, 1)
	for i := range fs {
		if x < fs[i].Rate {
			return &fs[i]
		}
		x -= fs[i].Rate
	}
	return nil
}

// Latency delays every response by Base plus PerKB for each 1024 bytes of
// its body.
type Latency struct {
	Base  time.Duration
	PerKB time.Duration
}

// For returns the delay of a response with a body of size bytes.
func (l Latency) For(size int) time.Duration {
	return l.Base + time.Duration(int64(l.PerKB)*int64(size)/1024)
}

// String formats l the way ParseLatency reads it.
func (l Latency) String() string {
	if l.PerKB == 0 {
		return l.Base.String()
	}
	return l.Base.String() + "+" + l.PerKB.String() + "/KB"
}

// ParseLatency reads "BASE" or "BASE+PER/KB", for example "40ms" or
// "20ms+1ms/KB".
func ParseLatency(s string) (Latency, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return Latency{}, nil
	}
	base, per, hasPer := strings.Cut(s, "+")
	var l Latency
	var err error
	if l.Base, err = time.ParseDuration(strings.TrimSpace(base)); err != nil || l.Base < 0 {
		return Latency{}, fmt.Errorf("latency %q: %q is not a duration such as 40ms", s, base)
	}
	if hasPer {
		d, ok := strings.CutSuffix(strings.ToUpper(strings.TrimSpace(per)), "/KB")
		if !ok {
			return Latency{}, fmt.Errorf("latency %q: want BASE+PER/KB, such as 20ms+1ms/KB", s)
		}
		if l.PerKB, err = time.ParseDuration(strings.ToLower(d)); err != nil || l.PerKB < 0 {
			return Latency{}, fmt.Errorf("latency %q: %q is not a duration such as 1ms", s, d)
		}
	}
	return l, nil
}
