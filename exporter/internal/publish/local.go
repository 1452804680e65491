package publish

import (
	"compress/gzip"
	"context"
	"crypto/md5"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"golang.org/x/sync/errgroup"

	"github.com/curex/curex/exporter/internal/crash"
	"github.com/curex/curex/exporter/internal/output"
)

// localFile is a file of the folder, hashed.
type localFile struct {
	rel        string
	size       int64 // on disk
	sha256     string
	storedSize int64
	storedMD5  []byte
	h          headers
}

// readManifest reads and checks the folder's manifest.json. Errors wrap
// output.ErrNotOutput or ErrUnsafePath.
func readManifest(root *os.Root, dir string) (*output.Manifest, error) {
	f, err := root.Open(output.ManifestName)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s has no %s: publish a folder built by curex export, build or demo: %w", dir, output.ManifestName, output.ErrNotOutput)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	defer f.Close()
	m, err := output.ReadManifest(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w: %w", dir, output.ErrNotOutput, err)
	}
	for _, mf := range m.Files {
		if err := output.CheckPath(mf.Path); err != nil {
			return nil, fmt.Errorf("%s/%s: %w: %w", dir, output.ManifestName, ErrUnsafePath, err)
		}
	}
	return m, nil
}

// walkLocal lists the regular files of the folder, skipping hidden names
// and symbolic links.
func walkLocal(ctx context.Context, root *os.Root, dir string, log *slog.Logger) ([]string, error) {
	var rels []string
	err := fs.WalkDir(root.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("walk %s: %w", dir, err)
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if p == "." {
			return nil
		}
		if strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		switch {
		case d.IsDir():
			return nil
		case d.Type()&fs.ModeSymlink != 0:
			log.Warn("publish: skipping symbolic link", "path", p)
			return nil
		case !d.Type().IsRegular():
			log.Warn("publish: skipping special file", "path", p)
			return nil
		}
		if err := output.CheckPath(p); err != nil {
			return fmt.Errorf("%s: %w: %w", dir, ErrUnsafePath, err)
		}
		rels = append(rels, p)
		return nil
	})
	return rels, err
}

// hashFiles hashes every file: SHA-256 of the content, and size and MD5 of
// the bytes as they would be stored.
func hashFiles(ctx context.Context, root *os.Root, rels []string, gz bool, types map[string]string) ([]localFile, error) {
	files := make([]localFile, len(rels))
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(runtime.GOMAXPROCS(0))
	for i, rel := range rels {
		g.Go(func() (err error) {
			defer crash.Recover(&err)
			if err := ctx.Err(); err != nil {
				return err
			}
			lf, err := hashFile(root, rel, headersFor(rel, gz, types))
			files[i] = lf
			return err
		})
	}
	return files, g.Wait()
}

func hashFile(root *os.Root, rel string, h headers) (localFile, error) {
	lf := localFile{rel: rel, h: h}
	f, err := root.Open(filepath.FromSlash(rel))
	if err != nil {
		return lf, fmt.Errorf("read %s: %w", rel, err)
	}
	defer f.Close()
	sum, md := sha256.New(), md5.New()
	stored := &countWriter{w: md}
	var zw *gzip.Writer
	dst := io.Writer(stored)
	if h.contentEncoding == "gzip" {
		zw = newGzip(stored)
		dst = zw
	}
	n, err := io.Copy(io.MultiWriter(sum, dst), f)
	if err == nil && zw != nil {
		err = zw.Close()
	}
	if err != nil {
		return lf, fmt.Errorf("read %s: %w", rel, err)
	}
	lf.size, lf.sha256 = n, hex.EncodeToString(sum.Sum(nil))
	lf.storedSize, lf.storedMD5 = stored.n, md.Sum(nil)
	return lf, nil
}

// newGzip returns the compressor used for both hashing and uploading. Its
// output depends only on the input (no name, no time in the header), so the
// MD5 computed while planning is the MD5 of the bytes uploaded.
func newGzip(w io.Writer) *gzip.Writer {
	zw, _ := gzip.NewWriterLevel(w, gzip.BestCompression) // a valid level: no error
	return zw
}

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// checkAgainstManifest makes sure every file the manifest lists is in the
// folder, and warns about files whose content differs from it.
func checkAgainstManifest(m *output.Manifest, files []localFile, dir string, log *slog.Logger) error {
	byPath := make(map[string]*localFile, len(files))
	for i := range files {
		byPath[files[i].rel] = &files[i]
	}
	for _, mf := range m.Files {
		lf, ok := byPath[mf.Path]
		if !ok {
			return fmt.Errorf("%s: %w: %s lists %s, which is not there", dir, ErrIncomplete, output.ManifestName, mf.Path)
		}
		if lf.size != mf.Size || lf.sha256 != mf.SHA256 {
			log.Warn("publish: file differs from manifest.json (changed after the export?)", "path", mf.Path)
		}
	}
	return nil
}
