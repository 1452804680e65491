package publish

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"
	"sync"

	"gocloud.dev/blob"
	"gocloud.dev/gcerrors"
	"golang.org/x/sync/errgroup"

	"github.com/curex/curex/exporter/internal/crash"
	"github.com/curex/curex/exporter/internal/output"
)

var (
	// ErrUnsafePath is returned when the folder or its manifest.json holds
	// a path that could leave the folder or the bucket prefix.
	ErrUnsafePath = errors.New("unsafe path")
	// ErrIncomplete is returned when manifest.json lists a file the folder
	// does not have: publishing it would name objects that do not exist.
	ErrIncomplete = errors.New("output folder incomplete")
	// ErrMassDelete is returned (as a *MassDeleteError) when a publish would
	// delete more objects than the guard allows and
	// Options.AllowMassDelete is not set.
	ErrMassDelete = errors.New("mass deletion refused")
)

// MassDeleteMin is the number of deletions a publish may always make; above
// it, deleting more than a quarter of the objects under the prefix needs
// Options.AllowMassDelete.
const MassDeleteMin = 10

// massDelete reports whether deleting del of the existing objects trips
// the guard.
func massDelete(del, existing int) bool {
	return del > MassDeleteMin && del*4 > existing
}

// MassDeleteError is the error of a publish refused by the deletion guard.
// It matches ErrMassDelete with errors.Is.
type MassDeleteError struct {
	Target   string // the bucket, as messages show it
	Delete   int    // objects the publish would delete
	Existing int    // objects under the prefix
}

func (e *MassDeleteError) Error() string {
	return fmt.Sprintf("%s: publishing would delete %s of the %s objects under %s (more than %d and more than a quarter)",
		ErrMassDelete, count(e.Delete), count(e.Existing), e.Target, MassDeleteMin)
}

// Is makes errors.Is(err, ErrMassDelete) true.
func (e *MassDeleteError) Is(target error) bool { return target == ErrMassDelete }

// Reason says why a file is uploaded.
type Reason string

// Reasons for an upload.
const (
	ReasonNew     Reason = "new"     // no object under its key
	ReasonChanged Reason = "changed" // the object differs
	ReasonForced  Reason = "forced"  // Options.Force
)

// Item is one file to upload.
type Item struct {
	// Path is the file's path relative to the folder, with forward
	// slashes; the object's key is the prefix followed by Path.
	Path string
	// Key is the object's key in the bucket (prefix included).
	Key string
	// Size is the number of bytes stored: compressed when ContentEncoding
	// is gzip.
	Size int64
	// SHA256 is the hex SHA-256 of the file (uncompressed), also stored in
	// the object's metadata.
	SHA256 string
	// ContentType, CacheControl and ContentEncoding are the headers the
	// object is stored with.
	ContentType, CacheControl, ContentEncoding string
	// Reason says why the file is uploaded.
	Reason Reason

	md5 []byte // of the stored bytes
}

// Upload phases: each finishes before the next starts.
const (
	phaseAssets   = iota // hashed assets, which new pages reference
	phaseFiles           // everything else
	phaseManifest        // manifest.json
)

func (it Item) phase() int {
	switch {
	case it.Path == output.ManifestName:
		return phaseManifest
	case it.CacheControl == CacheImmutable:
		return phaseAssets
	}
	return phaseFiles
}

// Plan is what a publish does: uploads (manifest.json last), then
// deletions. Print shows it.
type Plan struct {
	// Target names the bucket and prefix, without query or credentials.
	Target string
	// Upload lists the files to upload in the order of the upload
	// phases: hashed assets, then the other files, then manifest.json;
	// by path within a phase.
	Upload []Item
	// Delete lists the keys of stale objects, sorted: objects the bucket's
	// previous manifest.json lists, or that carry curex's checksum
	// metadata, and that the folder no longer has.
	Delete []string
	// LeftAlone lists the keys, sorted, of the objects under the prefix
	// that the folder does not have and that curex did not write (the
	// owner's CNAME, ads.txt, verification files): never deleted.
	LeftAlone []string
	// Unchanged counts the files whose objects are up to date.
	Unchanged int
	// Existing counts the objects under the prefix before the publish
	// (those a publish manages: see the package documentation).
	Existing int
	// Bytes is the total size of the uploads, as stored.
	Bytes int64
	// Checked counts the objects whose attributes were read to decide
	// (their listing gave no MD5, or one that is not the content's).
	Checked int
}

// Print writes the plan for a person: a line of counts, then each upload
// and deletion, at most limit of each (all when limit <= 0).
func (p *Plan) Print(w io.Writer, limit int) error {
	var b bytes.Buffer
	alone := ""
	if len(p.LeftAlone) > 0 {
		alone = fmt.Sprintf(", %s left alone (not written by curex)", count(len(p.LeftAlone)))
	}
	fmt.Fprintf(&b, "plan for %s: %s to upload (%s), %s to delete, %s unchanged%s\n",
		p.Target, count(len(p.Upload)), formatBytes(p.Bytes), count(len(p.Delete)), count(p.Unchanged), alone)
	for i, it := range p.Upload {
		if limit > 0 && i == limit {
			fmt.Fprintf(&b, "  ... and %s more uploads\n", count(len(p.Upload)-limit))
			break
		}
		enc := ""
		if it.ContentEncoding != "" {
			enc = ", " + it.ContentEncoding
		}
		fmt.Fprintf(&b, "  upload %s (%s, %s%s) %s | %s\n", it.Key, it.Reason, formatBytes(it.Size), enc, it.ContentType, it.CacheControl)
	}
	for i, k := range p.Delete {
		if limit > 0 && i == limit {
			fmt.Fprintf(&b, "  ... and %s more deletions\n", count(len(p.Delete)-limit))
			break
		}
		fmt.Fprintf(&b, "  delete %s\n", k)
	}
	for i, k := range p.LeftAlone {
		if limit > 0 && i == limit {
			fmt.Fprintf(&b, "  ... and %s more left alone\n", count(len(p.LeftAlone)-limit))
			break
		}
		fmt.Fprintf(&b, "  leave %s (not written by curex)\n", k)
	}
	_, err := w.Write(b.Bytes())
	return err
}

// keys returns every key the plan writes or deletes.
func (p *Plan) keys() []string {
	keys := make([]string, 0, len(p.Upload)+len(p.Delete))
	for _, it := range p.Upload {
		keys = append(keys, it.Key)
	}
	return append(keys, p.Delete...)
}

// metaSHA256 is the metadata key holding the uncompressed file's SHA-256.
const metaSHA256 = "curex-sha256"

// remoteObject is an object under the prefix, as listed.
type remoteObject struct {
	size int64
	md5  []byte
}

// managed reports whether a key (relative to the prefix) is one a publish
// may have written, and so one it may delete: a safe output path with no
// hidden segment.
// kept reports whether rel lies in one of the folders never to be deleted.
func kept(rel string, folders []string) bool {
	for _, f := range folders {
		if strings.HasPrefix(rel, strings.TrimSuffix(f, "/")+"/") {
			return true
		}
	}
	return false
}

func managed(rel string) bool {
	return output.CheckPath(rel) == nil && !hiddenSegment(rel)
}

func hiddenSegment(rel string) bool {
	for seg := range strings.SplitSeq(rel, "/") {
		if strings.HasPrefix(seg, ".") {
			return true
		}
	}
	return false
}

// listRemote lists the managed objects under prefix, keyed by path
// relative to the prefix.
func listRemote(ctx context.Context, b *blob.Bucket, prefix, target string) (map[string]remoteObject, error) {
	objs := map[string]remoteObject{}
	iter := b.List(&blob.ListOptions{Prefix: prefix})
	for {
		obj, err := iter.Next(ctx)
		if err == io.EOF {
			return objs, nil
		}
		if err != nil {
			return nil, fmt.Errorf("list %s: %w", target, err)
		}
		rel, ok := strings.CutPrefix(obj.Key, prefix)
		if !ok || obj.IsDir || !managed(rel) {
			continue
		}
		objs[rel] = remoteObject{size: obj.Size, md5: obj.MD5}
	}
}

// diff builds the plan. Objects whose size matches but whose MD5 is absent
// or differs are decided by their metadata (one Attributes call each, at
// most concurrency at once). Objects the folder does not have are deleted
// when owned (the previous manifest lists them) or when their metadata
// says curex wrote them (one Attributes call each), else left alone.
func diff(ctx context.Context, b *blob.Bucket, prefix string, files []localFile, remote map[string]remoteObject, owned map[string]bool, o Options) (*Plan, error) {
	d := &differ{b: b, prefix: prefix, o: o, p: &Plan{Existing: len(remote)}}
	if err := d.compare(ctx, files, remote); err != nil {
		return nil, err
	}
	if err := d.stale(ctx, files, remote, owned); err != nil {
		return nil, err
	}
	p := d.p
	slices.Sort(p.LeftAlone)
	slices.Sort(p.Delete)
	slices.SortFunc(d.uploads, func(a, b Item) int {
		if c := a.phase() - b.phase(); c != 0 {
			return c
		}
		return strings.Compare(a.Path, b.Path)
	})
	p.Upload, p.Unchanged = d.uploads, d.unchanged
	for _, it := range d.uploads {
		p.Bytes += it.Size
	}
	return p, nil
}

// differ builds one plan.
type differ struct {
	b      *blob.Bucket
	prefix string
	o      Options
	p      *Plan

	mu        sync.Mutex // guards what follows, p.Delete and p.LeftAlone
	uploads   []Item
	unchanged int
}

// upload plans lf's upload for reason r.
func (d *differ) upload(lf localFile, r Reason) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.uploads = append(d.uploads, Item{
		Path: lf.rel, Key: d.prefix + lf.rel, Size: lf.storedSize, SHA256: lf.sha256,
		ContentType: lf.h.contentType, CacheControl: lf.h.cacheControl, ContentEncoding: lf.h.contentEncoding,
		Reason: r, md5: lf.storedMD5,
	})
}

// same counts a file the bucket holds as it is.
func (d *differ) same() {
	d.mu.Lock()
	d.unchanged++
	d.mu.Unlock()
}

// compare decides, for each local file, whether to upload it.
func (d *differ) compare(ctx context.Context, files []localFile, remote map[string]remoteObject) error {
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(d.o.Concurrency)
	for _, lf := range files {
		obj, ok := remote[lf.rel]
		switch {
		case !ok:
			d.upload(lf, ReasonNew)
		case d.o.Force:
			d.upload(lf, ReasonForced)
		case obj.size != lf.storedSize:
			d.upload(lf, ReasonChanged)
		case bytes.Equal(obj.md5, lf.storedMD5):
			d.same()
		default:
			d.p.Checked++
			g.Go(func() (err error) {
				defer crash.Recover(&err)
				same, err := sameByMetadata(gctx, d.b, d.prefix+lf.rel, lf)
				if err != nil {
					return err
				}
				if !same {
					d.upload(lf, ReasonChanged)
					return nil
				}
				d.same()
				return nil
			})
		}
	}
	return g.Wait()
}

// stale decides what to do with the objects the folder does not have. A
// stale object is deleted only when curex wrote it: the bucket's previous
// manifest.json lists it (owned), or it carries curex's checksum metadata
// (an interrupted publish wrote it). Anything else (the owner's CNAME,
// ads.txt, verification files) is left alone.
func (d *differ) stale(ctx context.Context, files []localFile, remote map[string]remoteObject, owned map[string]bool) error {
	local := make(map[string]bool, len(files))
	for _, lf := range files {
		local[lf.rel] = true
	}
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(d.o.Concurrency)
	for rel := range remote {
		if local[rel] || kept(rel, d.o.Keep) {
			continue
		}
		key := d.prefix + rel
		if owned[rel] {
			d.mu.Lock() // the goroutines below append too
			d.p.Delete = append(d.p.Delete, key)
			d.mu.Unlock()
			continue
		}
		g.Go(func() (err error) {
			defer crash.Recover(&err)
			a, err := d.b.Attributes(gctx, key)
			if gcerrors.Code(err) == gcerrors.NotFound {
				return nil // gone since the listing
			}
			if err != nil {
				return fmt.Errorf("read attributes of %q: %w", key, err)
			}
			d.mu.Lock()
			defer d.mu.Unlock()
			if a.Metadata[metaSHA256] != "" {
				d.p.Delete = append(d.p.Delete, key)
			} else {
				d.p.LeftAlone = append(d.p.LeftAlone, key)
			}
			return nil
		})
	}
	return g.Wait()
}

// maxManifestBytes bounds the previous manifest.json read from a bucket.
const maxManifestBytes = 256 << 20

// previousManifest returns the paths the bucket's manifest.json under
// prefix lists, when there is one curex wrote (a generator starting with
// "curex"); nil otherwise. A manifest that cannot be read only costs
// attribute reads, so it is logged and not an error.
func previousManifest(ctx context.Context, b *blob.Bucket, prefix string, remote map[string]remoteObject, log *slog.Logger) (map[string]bool, error) {
	if _, ok := remote[output.ManifestName]; !ok {
		return nil, nil
	}
	key := prefix + output.ManifestName
	r, err := b.NewReader(ctx, key, nil)
	if gcerrors.Code(err) == gcerrors.NotFound {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %q: %w", key, err)
	}
	defer r.Close()
	m, err := output.ReadManifest(io.LimitReader(r, maxManifestBytes))
	if err != nil || !strings.HasPrefix(m.Generator, "curex") {
		log.Warn("publish: the bucket's manifest.json is not one curex wrote; stale objects are told by their metadata", "key", key, "err", err)
		return nil, nil
	}
	owned := make(map[string]bool, len(m.Files))
	for _, f := range m.Files {
		owned[f.Path] = true
	}
	return owned, nil
}

// sameByMetadata reads an object's attributes and reports whether it holds
// lf as this publish would store it.
func sameByMetadata(ctx context.Context, b *blob.Bucket, key string, lf localFile) (bool, error) {
	a, err := b.Attributes(ctx, key)
	if err != nil {
		return false, fmt.Errorf("read attributes of %q: %w", key, err)
	}
	return a.Size == lf.storedSize && a.Metadata[metaSHA256] == lf.sha256 && a.ContentEncoding == lf.h.contentEncoding, nil
}

// count formats n with thousands separators: 1,680.
func count(n int) string {
	s := fmt.Sprint(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// formatBytes formats a size in decimal units: 512 B, 3.4 kB, 12.0 MB.
func formatBytes(n int64) string {
	const unit = 1000
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit && exp < 4; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %cB", float64(n)/float64(div), "kMGTP"[exp])
}
