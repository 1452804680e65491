package exporter

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"sync"

	"github.com/curex/curex/exporter/internal/assets"
	"github.com/curex/curex/exporter/internal/cpugate"
	"github.com/curex/curex/exporter/internal/layout"
	"github.com/curex/curex/exporter/internal/model"
	"github.com/curex/curex/exporter/internal/output"
	"github.com/curex/curex/exporter/internal/render"
	"github.com/curex/curex/exporter/internal/render/content"
	"github.com/curex/curex/exporter/internal/setting"
)

// How a run shows the images content refers to (Config.Assets).
const (
	// AssetsLocal fetches each image once, checks it and keeps it under
	// assets/content/ in the output; pages refer to it relatively.
	AssetsLocal = "local"
	// AssetsRemote leaves every image at its URL, fetching nothing.
	AssetsRemote = "remote"
)

// checkAssets checks Config.Assets, defaulting to AssetsLocal.
func (c *Config) checkAssets() error {
	switch c.Assets {
	case "":
		c.Assets = AssetsLocal
	case AssetsLocal, AssetsRemote:
	default:
		return &ConfigError{setting.Errorf(setting.Assets, "%q: want local or remote", c.Assets)}
	}
	return nil
}

// images are a run's content images (Config.Assets local): fetched once
// per URL as the trees are written, each file written once to the output,
// and every export's list of the files its pages show, so an export
// carried over carries its images over too.
type images struct {
	// store fetches the images; nil when they stay remote (the run then
	// only carries over the files of the pages it carries over).
	store *assets.Store
	// urls reads a node's image URLs as the formats render them.
	urls *content.Converter
	// remote fetches, with --assets remote and the PDF, the images the
	// handbook shows while Chromium prints it (nil otherwise).
	remote *assets.Fetcher

	mu sync.Mutex
	// written holds the paths of the files in the new output.
	written map[string]bool
	// files holds where the files this run wrote are on disk (the
	// store's Asset.File), by path: their bytes are read when a format
	// needs them, never held for the run.
	files map[string]string
	// log receives a file that could not be read again.
	log *slog.Logger
}

// newImages returns the images of a run with c: with no store when images
// stay remote or no format shows them. A build (offline) takes them from
// the cache alone.
func newImages(c *Config, offline bool) (*images, error) {
	reg := c.registry()
	if c.Assets == AssetsRemote && !reg.Any(c.Formats, render.ShowsImagesOffline) || !reg.Any(c.Formats, render.ShowsImages) {
		return &images{written: map[string]bool{}, files: map[string]string{}, log: c.Log}, nil
	}
	f, err := assets.NewFetcher(assets.Options{AllowPrivate: c.AllowPrivateAssets, AllowHosts: c.AssetHosts,
		CacheDir: c.CacheDir, Offline: offline, Transport: c.AssetTransport, Deadline: c.Deadline, Log: c.Log})
	if err != nil {
		return nil, &ConfigError{setting.Errorf(setting.Assets, "%w", err)}
	}
	if c.Assets == AssetsRemote {
		// The pages keep the URLs; the PDF's images come through f.
		return &images{remote: f, written: map[string]bool{}, files: map[string]string{}, log: c.Log}, nil
	}
	return &images{store: assets.NewStoreBudget(f, c.Concurrency, c.ImageBudget), urls: content.New(), written: map[string]bool{},
		files: map[string]string{}, log: c.Log}, nil
}

// close removes the store's or the remote fetcher's temporary files, if any.
func (im *images) close() error {
	switch {
	case im.store != nil:
		return im.store.Close()
	case im.remote != nil:
		return im.remote.Close()
	}
	return nil
}

// fetchRemote is the formats' render.Options.RemoteImage: the bytes of
// the image at url, fetched and checked by the image fetcher's rules.
func (im *images) fetchRemote(ctx context.Context, url string) ([]byte, error) {
	a, _, err := im.remote.Fetch(ctx, url)
	if err != nil {
		return nil, err
	}
	return os.ReadFile(a.File)
}

// resolve is the renderers' content.Images.
func (im *images) resolve(url string) (content.Image, bool) {
	res, ok := im.store.Lookup(url)
	if !ok {
		return content.Image{}, false
	}
	if res.Err != nil {
		return content.Image{Failed: true}, true
	}
	return content.Image{Path: res.Path, Width: res.Width, Height: res.Height}, true
}

// fetch fetches the images of t's nodes (t holds what the formats show:
// unpublished nodes are gone; their Markdown is read on gate's free
// units), writes each new file through w, and lists the tree's files in
// entry. A failed image is logged and shown as a link;
// only the end of ctx is an error.
func (im *images) fetch(ctx context.Context, w *output.Writer, t *model.Tree, gate *cpugate.Gate, entry *output.ManifestExport) error {
	if im.store == nil {
		return nil
	}
	var nodes []*model.Node
	t.Walk(func(n *model.Node) bool {
		nodes = append(nodes, n)
		return true
	})
	// Reading the nodes' Markdown for images is work, not waiting: on
	// the gate's free units, side by side.
	found := make([][]string, len(nodes))
	_ = each(gate, len(nodes), func(i int) error {
		found[i] = im.urls.ImageURLs(nodes[i].Attributes, nodes[i].Title)
		return nil
	})
	urls := slices.Concat(found...)
	if len(urls) == 0 {
		return nil
	}
	if err := im.store.Fetch(ctx, urls); err != nil {
		return err
	}
	var paths []string
	for _, u := range urls {
		res, ok := im.store.Lookup(u)
		if !ok || res.Err != nil {
			continue
		}
		if err := im.write(w, res.Path, res.File); err != nil {
			return err
		}
		paths = append(paths, res.Path)
	}
	slices.Sort(paths)
	entry.Assets = slices.Compact(paths)
	return nil
}

// write writes the file at path, from file, once per run. Its bytes are
// read for the write alone.
func (im *images) write(w *output.Writer, path, file string) error {
	im.mu.Lock()
	defer im.mu.Unlock()
	if im.written[path] {
		return nil
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return fmt.Errorf("image: %w", err)
	}
	if err := w.Write(path, data); err != nil {
		return fmt.Errorf("image: %w", err)
	}
	im.written[path] = true
	im.files[path] = file
	return nil
}

// bytesOf is the formats' render.Options.ImageData: the bytes of a file
// this run wrote, read from the store's file when asked for.
func (im *images) bytesOf(path string) ([]byte, bool) {
	im.mu.Lock()
	file, ok := im.files[path]
	im.mu.Unlock()
	if !ok {
		return nil, false
	}
	data, err := os.ReadFile(file)
	if err != nil {
		im.log.Warn("reading an image again", "path", path, "err", err)
		return nil, false
	}
	return data, true
}

// carryOver carries over from the previous output the files of an export
// whose pages are carried over, those not in the new output yet.
func (im *images) carryOver(w *output.Writer, entry output.ManifestExport) error {
	for _, p := range entry.Assets {
		if !isContentAsset(p) {
			continue // a manifest is not trusted to name other files
		}
		im.mu.Lock()
		done := im.written[p]
		im.written[p] = true
		im.mu.Unlock()
		if done {
			continue
		}
		if _, err := w.CarryOver(p); err != nil {
			return err
		}
	}
	return nil
}

// isContentAsset reports whether p is a file of layout.ContentAssets.
func isContentAsset(p string) bool {
	dir := layout.ContentAssets + "/"
	return len(p) > len(dir) && p[:len(dir)] == dir && output.CheckPath(p) == nil && !slices.Contains([]byte(p[len(dir):]), '/')
}

// counts returns the images fetched, reused and failed (zero when they
// stay remote).
func (im *images) counts() (fetched, reused, failed int) {
	if im.store == nil {
		return 0, 0, 0
	}
	return im.store.Counts()
}
