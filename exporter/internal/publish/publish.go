package publish

import (
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"gocloud.dev/blob"
	"gocloud.dev/gcerrors"
	"golang.org/x/sync/errgroup"

	"github.com/curex/curex/exporter/internal/crash"
	"github.com/curex/curex/exporter/internal/output"
)

// DefaultConcurrency is the number of uploads (and deletions, and
// attribute reads) at once unless Options.Concurrency says otherwise.
const DefaultConcurrency = 8

// Options tune a publish. The zero value is ready to use.
type Options struct {
	// Concurrency bounds the uploads, deletions and attribute reads in
	// flight (default DefaultConcurrency).
	Concurrency int
	// DryRun plans and reports without writing or deleting anything.
	DryRun bool
	// Force uploads every file, changed or not (to renew headers after an
	// upgrade changed them, say).
	Force bool
	// AllowMassDelete lifts the deletion guard (see MassDeleteMin).
	AllowMassDelete bool
	// Gzip stores text kinds (html, css, js, json, xml, svg, md, txt)
	// gzip-compressed with Content-Encoding: gzip.
	Gzip bool
	// Log receives debug lines per object and warnings (default: none).
	Log *slog.Logger
	// Progress, when set, is called after each upload and deletion
	// succeeds, one call at a time.
	Progress func(Event)
	// Types maps the extensions of the formats' files to their media
	// types (render.Registry.MediaTypes): a file whose extension curex
	// serve's table lacks is stored with its format's (serve.TypeOf).
	Types map[string]string
	// Keep lists folders (relative to the folder published, "c/v/l") whose
	// objects are never deleted, even when the folder lacks them: curex
	// export keeps there the previous version of exports it failed to
	// fetch but could not carry over locally.
	Keep []string
}

// Op is the kind of operation an Event reports.
type Op string

// Operations reported to Options.Progress.
const (
	OpUpload Op = "upload"
	OpDelete Op = "delete"
)

// Event reports one finished upload or deletion.
type Event struct {
	Op    Op
	Key   string // the object's key
	Bytes int64  // bytes stored, for uploads
	Done  int    // operations of this kind finished so far, this one included
	Total int    // operations of this kind planned
}

// Result reports a publish.
type Result struct {
	// Target names the bucket and prefix, without query or credentials.
	Target string
	// Plan is what the publish set out to do.
	Plan *Plan
	// DryRun is true when nothing was written or deleted on purpose.
	DryRun bool
	// Uploaded and Deleted count the operations done; Unchanged the files
	// whose objects were up to date.
	Uploaded, Deleted, Unchanged int
	// Bytes counts the bytes uploaded, as stored.
	Bytes int64
	// Duration is the time the publish took.
	Duration time.Duration
}

// Summary returns the result in one line, like
// "12 uploaded (3.4 MB), 2 deleted, 1,680 unchanged in 1.2s", or for a dry
// run "12 to upload (3.4 MB), 2 to delete, 1,680 unchanged in 0.3s (dry run)".
// Objects left alone, when there are some, are counted after "unchanged":
// ", 4 left alone (not written by curex)".
func (r *Result) Summary() string {
	d := r.Duration.Round(100 * time.Millisecond)
	if r.Duration < time.Second {
		d = r.Duration.Round(time.Millisecond)
	}
	alone := ""
	if r.Plan != nil && len(r.Plan.LeftAlone) > 0 {
		alone = fmt.Sprintf(", %s left alone (not written by curex)", count(len(r.Plan.LeftAlone)))
	}
	if r.DryRun && r.Plan != nil {
		return fmt.Sprintf("%s to upload (%s), %s to delete, %s unchanged%s in %s (dry run)",
			count(len(r.Plan.Upload)), formatBytes(r.Plan.Bytes), count(len(r.Plan.Delete)), count(r.Unchanged), alone, d)
	}
	return fmt.Sprintf("%s uploaded (%s), %s deleted, %s unchanged%s in %s",
		count(r.Uploaded), formatBytes(r.Bytes), count(r.Deleted), count(r.Unchanged), alone, d)
}

// Publish copies the output folder dir to the bucket rawURL names (see
// the package documentation and docs/publish.md for the URL forms), and
// deletes the objects under its prefix that dir no longer has.
//
// The Result is non-nil whenever planning finished, also with an error:
// a dry run refused by the deletion guard returns its plan and a
// *MassDeleteError. Errors wrap ErrBadURL, output.ErrNotOutput,
// ErrUnsafePath, ErrIncomplete or ErrMassDelete when the inputs are at
// fault and nothing was written, and ErrNoCredentials when a gs:// or
// azblob:// bucket cannot be opened for want of credentials.
func Publish(ctx context.Context, dir, rawURL string, o Options) (*Result, error) {
	t, err := parseURL(rawURL)
	if err != nil {
		return nil, fmt.Errorf("publish %s: %w", dir, err)
	}
	if t.dir != "" {
		abs, err := filepath.Abs(dir)
		if err == nil && overlaps(abs, t.dir) {
			return nil, fmt.Errorf("publish %s to %s: %w: the target folder overlaps the folder published", dir, t.display, ErrBadURL)
		}
	}
	b, err := openBucket(ctx, t)
	if err != nil {
		msg := strings.ReplaceAll(err.Error(), t.open, t.display)
		return nil, &redacted{msg: fmt.Sprintf("publish %s: open %s: %s", dir, t.display, msg), err: err}
	}
	defer b.Close()
	var guard func(string) error
	if t.dir != "" {
		guard = noSymlinks(t.dir)
	}
	return publish(ctx, dir, b, t.prefix, t.display, guard, o)
}

// PublishBucket is Publish to an open bucket: keys are prefix (empty, or
// ending in "/") followed by the file's path. The bucket stays open.
func PublishBucket(ctx context.Context, dir string, b *blob.Bucket, prefix string, o Options) (*Result, error) {
	if prefix != "" {
		p := strings.Trim(prefix, "/")
		if err := output.CheckPath(p); err != nil || hiddenSegment(p) {
			return nil, fmt.Errorf("publish %s: %w: prefix %q", dir, ErrUnsafePath, prefix)
		}
		prefix = p + "/"
	}
	name := "bucket"
	if prefix != "" {
		name = "bucket prefix " + prefix
	}
	return publish(ctx, dir, b, prefix, name, nil, o)
}

// redacted is an error whose message had the bucket URL's query removed.
type redacted struct {
	msg string
	err error
}

func (e *redacted) Error() string { return e.msg }
func (e *redacted) Unwrap() error { return e.err }

func (o Options) withDefaults() Options {
	if o.Concurrency <= 0 {
		o.Concurrency = DefaultConcurrency
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	return o
}

// publish is Publish and PublishBucket. guard, when not nil, is asked
// about every key before it is written or deleted (for a file:// target:
// no symbolic link on the way); its error refuses the publish at planning
// and stops it at execution.
func publish(ctx context.Context, dir string, b *blob.Bucket, prefix, tgt string, guard func(key string) error, o Options) (*Result, error) {
	start := time.Now()
	o = o.withDefaults()
	fail := func(err error) error { return fmt.Errorf("publish %s to %s: %w", dir, tgt, err) }
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fail(err)
	}
	defer root.Close()
	m, err := readManifest(root, dir)
	if err != nil {
		return nil, fail(err)
	}
	rels, err := walkLocal(ctx, root, dir, o.Log)
	if err != nil {
		return nil, fail(err)
	}
	var (
		files  []localFile
		remote map[string]remoteObject
	)
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() (err error) {
		defer crash.Recover(&err)
		files, err = hashFiles(gctx, root, rels, o.Gzip, o.Types)
		return err
	})
	g.Go(func() (err error) {
		defer crash.Recover(&err)
		remote, err = listRemote(gctx, b, prefix, tgt)
		return err
	})
	if err := g.Wait(); err != nil {
		return nil, fail(err)
	}
	if err := checkAgainstManifest(m, files, dir, o.Log); err != nil {
		return nil, fail(err)
	}
	owned, err := previousManifest(ctx, b, prefix, remote, o.Log)
	if err != nil {
		return nil, fail(err)
	}
	plan, err := diff(ctx, b, prefix, files, remote, owned, o)
	if err != nil {
		return nil, fail(err)
	}
	plan.Target = tgt
	if guard != nil {
		for _, key := range plan.keys() {
			if err := guard(key); err != nil {
				return nil, fail(err)
			}
		}
	}
	res := &Result{Target: tgt, Plan: plan, DryRun: o.DryRun, Unchanged: plan.Unchanged}
	if n := len(plan.LeftAlone); n > 0 {
		o.Log.Warn("publish: objects not written by curex are left alone", "target", tgt, "count", n,
			"keys", strings.Join(plan.LeftAlone[:min(n, 20)], ", "))
	}
	o.Log.Debug("publish: plan", "target", tgt, "upload", len(plan.Upload), "delete", len(plan.Delete), "left_alone", len(plan.LeftAlone),
		"unchanged", plan.Unchanged, "existing", plan.Existing, "bytes", plan.Bytes, "checked", plan.Checked)
	if massDelete(len(plan.Delete), plan.Existing) && !o.AllowMassDelete {
		res.Duration = time.Since(start)
		return res, fail(&MassDeleteError{Target: tgt, Delete: len(plan.Delete), Existing: plan.Existing})
	}
	if o.DryRun {
		res.Duration = time.Since(start)
		return res, nil
	}
	err = execute(ctx, root, b, plan, res, guard, o)
	res.Duration = time.Since(start)
	if err != nil {
		return res, fail(err)
	}
	return res, nil
}

// execute uploads the hashed assets, then every other file but
// manifest.json, then manifest.json, each phase finished before the next
// starts; then it deletes the stale objects. It stops at the first failed
// upload and deletes nothing then.
func execute(ctx context.Context, root *os.Root, b *blob.Bucket, plan *Plan, res *Result, guard func(string) error, o Options) error {
	x := &executor{root: root, b: b, plan: plan, res: res, guard: guard, o: o}
	total := len(plan.Upload)
	var err error
	for phase := phaseAssets; phase <= phaseManifest && err == nil; phase++ {
		err = x.uploadPhase(ctx, phase)
	}
	if err != nil {
		if cerr := context.Cause(ctx); cerr != nil && !errors.Is(err, cerr) {
			err = fmt.Errorf("%w (%v)", cerr, err)
		}
		return fmt.Errorf("stopped after %d of %d uploads; nothing deleted and %s not replaced; publishing again continues: %w",
			res.Uploaded, total, output.ManifestName, err)
	}
	if err := x.deleteStale(ctx); err != nil {
		return fmt.Errorf("every file uploaded, but deleting stale objects stopped after %d of %d; publishing again finishes it: %w",
			res.Deleted, len(plan.Delete), err)
	}
	return nil
}

// executor carries out one plan, counting into its Result.
type executor struct {
	root  *os.Root
	b     *blob.Bucket
	plan  *Plan
	res   *Result
	guard func(string) error
	o     Options
	mu    sync.Mutex // guards res's counts and the order of progress events
}

// report counts one finished upload or deletion of key (n bytes; total
// such operations) and tells the log and the progress callback.
func (x *executor) report(op Op, key string, n int64, total int) {
	x.mu.Lock()
	defer x.mu.Unlock()
	var done int
	if op == OpUpload {
		x.res.Uploaded++
		x.res.Bytes += n
		done = x.res.Uploaded
	} else {
		x.res.Deleted++
		done = x.res.Deleted
	}
	x.o.Log.Debug("publish: "+string(op), "key", key, "bytes", n)
	if x.o.Progress != nil {
		x.o.Progress(Event{Op: op, Key: key, Bytes: n, Done: done, Total: total})
	}
}

// uploadPhase uploads the plan's files of one phase, o.Concurrency at a
// time, and returns the first error.
func (x *executor) uploadPhase(ctx context.Context, phase int) error {
	total := len(x.plan.Upload)
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(x.o.Concurrency)
	for _, it := range x.plan.Upload {
		if it.phase() != phase {
			continue
		}
		g.Go(func() (err error) {
			defer crash.Recover(&err)
			if err := gctx.Err(); err != nil {
				return err
			}
			if x.guard != nil {
				if err := x.guard(it.Key); err != nil {
					return err
				}
			}
			if err := upload(gctx, x.root, x.b, it, x.plan.Target); err != nil {
				return err
			}
			x.report(OpUpload, it.Key, it.Size, total)
			return nil
		})
	}
	return g.Wait()
}

// deleteStale deletes the plan's stale objects, o.Concurrency at a time
// (one already gone counts as deleted), and returns the first error.
func (x *executor) deleteStale(ctx context.Context) error {
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(x.o.Concurrency)
	for _, key := range x.plan.Delete {
		g.Go(func() (err error) {
			defer crash.Recover(&err)
			if err := gctx.Err(); err != nil {
				return err
			}
			if x.guard != nil {
				if err := x.guard(key); err != nil {
					return err
				}
			}
			err = x.b.Delete(gctx, key)
			if err != nil && gcerrors.Code(err) != gcerrors.NotFound {
				return fmt.Errorf("delete %q from %s: %w", key, x.plan.Target, err)
			}
			x.report(OpDelete, key, 0, len(x.plan.Delete))
			return nil
		})
	}
	return g.Wait()
}

// upload stores one file under its key with its headers and its SHA-256
// in the metadata. On any error the write is aborted: the previous object,
// if any, stays.
func upload(ctx context.Context, root *os.Root, b *blob.Bucket, it Item, tgt string) error {
	fail := func(err error) error { return fmt.Errorf("upload %q to %s: %w", it.Key, tgt, err) }
	f, err := root.Open(filepath.FromSlash(it.Path))
	if err != nil {
		return fail(err)
	}
	defer f.Close()
	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	w, err := b.NewWriter(wctx, it.Key, &blob.WriterOptions{
		ContentType:     it.ContentType,
		CacheControl:    it.CacheControl,
		ContentEncoding: it.ContentEncoding,
		ContentMD5:      it.md5, // checked by the drivers that can: the file must not change under us
		Metadata:        map[string]string{metaSHA256: it.SHA256},
	})
	if err != nil {
		return fail(err)
	}
	stored := &countWriter{w: w}
	var (
		dst io.Writer = stored
		zw  *gzip.Writer
	)
	if it.ContentEncoding == "gzip" {
		zw = newGzip(stored)
		dst = zw
	}
	_, err = io.Copy(dst, f)
	if err == nil && zw != nil {
		err = zw.Close()
	}
	if err == nil && stored.n != it.Size {
		err = fmt.Errorf("%s changed while publishing (%d bytes planned, %d read)", it.Path, it.Size, stored.n)
	}
	if err != nil {
		cancel() // abort the write
		_ = w.Close()
		return fail(err)
	}
	if err := w.Close(); err != nil {
		return fail(err)
	}
	return nil
}

// noSymlinks returns the guard of a file:// target: gocloud's fileblob
// follows symbolic links in a key's folders (os.MkdirAll, then a rename
// into the folder), so a link inside the target would have pages written,
// or files deleted, wherever it points. The guard refuses a key whose path
// below root passes through a symbolic link or is one. It runs when the
// plan is made and again just before each write and deletion.
func noSymlinks(root string) func(key string) error {
	return func(key string) error {
		parts := strings.Split(key, "/")
		p := root
		for i, part := range parts {
			p = filepath.Join(p, part)
			fi, err := os.Lstat(p)
			if errors.Is(err, fs.ErrNotExist) {
				return nil // the write creates the rest, as plain folders
			}
			if err != nil {
				return fmt.Errorf("%w: %s: %w", ErrUnsafePath, key, err)
			}
			if fi.Mode()&fs.ModeSymlink != 0 {
				return fmt.Errorf("%w: %s is a symbolic link inside the target folder: curex does not write or delete through it (key %q)", ErrUnsafePath, p, key)
			}
			if i < len(parts)-1 && !fi.IsDir() {
				return fmt.Errorf("%w: %s is not a folder (key %q)", ErrUnsafePath, p, key)
			}
		}
		return nil
	}
}
