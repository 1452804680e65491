package entry

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"strings"
	"testing"
)

// body returns n bytes drawn from seed.
func body(n int, seed uint64) []byte {
	var s [32]byte
	binary.LittleEndian.PutUint64(s[:], seed)
	b := make([]byte, n)
	_, _ = rand.NewChaCha8(s).Read(b)
	return b
}

func TestEntryRoundTrip(t *testing.T) {
	for _, e := range []Entry{
		{},
		{Key: "k", ETag: "e", Body: []byte("b")},
		{Key: strings.Repeat("k", MaxKey), ETag: strings.Repeat("e", MaxETag), Body: body(1<<20, 3)},
	} {
		data := Encode(e)
		if len(data) != HeaderLen+len(e.Key)+len(e.ETag)+len(e.Body) {
			t.Errorf("entry of %d bytes", len(data))
		}
		got, err := Decode(data)
		if err != nil || got.Key != e.Key || got.ETag != e.ETag || !bytes.Equal(got.Body, e.Body) {
			t.Errorf("decode(encode(%q, %q, %d bytes)) = %q, %q, %d bytes, %v", e.Key, e.ETag, len(e.Body), got.Key, got.ETag, len(got.Body), err)
		}
	}
}

// FuzzDecodeEntry feeds the entry parser arbitrary bytes: it never panics,
// and whatever it accepts re-encodes to the same bytes.
func FuzzDecodeEntry(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte(magic))
	f.Add(Encode(Entry{}))
	f.Add(Encode(Entry{Key: "/api/v1/me", ETag: `"abc"`, Body: []byte(`{"data":{}}`)}))
	f.Add(Encode(Entry{Key: "k", ETag: "", Body: body(300, 4)}))
	f.Fuzz(func(t *testing.T, data []byte) {
		e, err := Decode(data)
		if err != nil {
			return
		}
		if again := Encode(e); !bytes.Equal(again, data) {
			t.Fatalf("re-encoded entry differs:\n%x\n%x", again, data)
		}
	})
}
