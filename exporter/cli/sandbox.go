package cli

import (
	"context"
	"errors"
	"fmt"
	"net"
	"time"

	"github.com/spf13/cobra"

	"github.com/curex/curex/exporter/ratelimit"
	"github.com/curex/curex/exporter/sandbox"
	"github.com/curex/curex/exporter/sandbox/dataset"
)

type sandboxFlags struct {
	addr             string
	data             string
	rateLimit        string
	tokens           []string
	faults           string
	latency          string
	seed             int64
	omitRetryAfter   bool
	rateLimitHeaders bool
	records          string
}

func newSandboxCommand(g *globals) *cobra.Command {
	f := &sandboxFlags{}
	cmd := &cobra.Command{
		Use:   "sandbox",
		Short: "Serve the Curriculum Content API on loopback from a dataset",
		Long: `sandbox serves all endpoints of the Curriculum Content API from a dataset:
the embedded sample, a synthetic one for scale, or a JSON file (see
docs/sandbox.md). It enforces rate limits per token and can inject faults,
for tests, demos and theme work without an API token.`,
		Example: `  curex sandbox
  curex sandbox --addr 127.0.0.1:0 --data synthetic:curricula=50,variants=4,locales=6,nodes=2000
  curex sandbox --rate-limit 20/1s,120/6s --faults 500=0.05,503=0.02:1s,cut=0.01 --seed 7`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runSandbox(cmd.Context(), g, f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.addr, "addr", "127.0.0.1:8080", "address to listen on (port 0 picks a free one)")
	fl.StringVar(&f.data, "data", "sample", "dataset: sample, synthetic:curricula=N,variants=N,locales=N,nodes=N,depth=N,seed=N,body=0|1, or a JSON file")
	fl.StringVar(&f.rateLimit, "rate-limit", ratelimit.Default().String(), "limits per token, COUNT/WINDOW pairs enforced together, or none")
	fl.StringArrayVar(&f.tokens, "token", nil, "extra bearer token for the dataset's first user (repeatable)")
	fl.StringVar(&f.faults, "faults", "", "faults to inject, KIND=RATE[:ARG],... e.g. 500=0.05,503=0.02:2s,cut=0.01,slow=0.01:5s")
	fl.StringVar(&f.latency, "latency", "", "added latency, BASE or BASE+PER/KB, e.g. 40ms+1ms/KB")
	fl.Int64Var(&f.seed, "seed", 1, "seed for fault injection")
	fl.BoolVar(&f.omitRetryAfter, "omit-retry-after", false, "send 429 without a Retry-After header")
	fl.BoolVar(&f.rateLimitHeaders, "rate-limit-headers", false, "send RateLimit-Policy and X-RateLimit-* headers")
	fl.StringVar(&f.records, "records", string(sandbox.RecordsResource), "record form: resource (id, type, attributes) or plain (fields at the top)")
	return cmd
}

func (f *sandboxFlags) options() (sandbox.Options, error) {
	var opts sandbox.Options
	var err error
	if opts.Limits, err = ratelimit.Parse(f.rateLimit); err != nil {
		return opts, usageErr(fmt.Errorf("--rate-limit: %w", err))
	}
	if opts.Faults, err = sandbox.ParseFaults(f.faults); err != nil {
		return opts, usageErr(fmt.Errorf("--faults: %w", err))
	}
	if opts.Latency, err = sandbox.ParseLatency(f.latency); err != nil {
		return opts, usageErr(fmt.Errorf("--latency: %w", err))
	}
	if opts.Records, err = sandbox.ParseRecordForm(f.records); err != nil {
		return opts, usageErr(fmt.Errorf("--records: %w", err))
	}
	opts.Seed = f.seed
	opts.OmitRetryAfter = f.omitRetryAfter
	opts.RateLimitHeaders = f.rateLimitHeaders
	return opts, nil
}

func runSandbox(ctx context.Context, g *globals, f *sandboxFlags) error {
	log, err := g.logger()
	if err != nil {
		return err
	}
	opts, err := f.options()
	if err != nil {
		return err
	}
	opts.Logger = log
	ds, err := dataset.Open(f.data)
	if err != nil {
		return usageErr(fmt.Errorf("--data: %w", err))
	}
	if len(f.tokens) > 0 {
		if len(ds.Users) == 0 {
			return usageErr(errors.New("--token: the dataset has no user to give the token to"))
		}
		var extra []dataset.Token
		for _, t := range f.tokens {
			extra = append(extra, dataset.Token{Token: t, User: ds.Users[0].ID})
		}
		ds.Tokens = append(extra, ds.Tokens...)
	}
	h, err := sandbox.New(ds, opts)
	if err != nil {
		return usageErr(fmt.Errorf("--data %s: %w", f.data, err))
	}
	if host, _, err := net.SplitHostPort(f.addr); err == nil {
		if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
			log.Warn("listening beyond loopback: anyone who can reach this address and knows a sandbox token can read the dataset", "addr", f.addr)
		}
	}
	srv, err := sandbox.Listen(f.addr, h)
	if err != nil {
		return err
	}
	printBanner(g, h.Index(), srv.URL, opts)
	<-ctx.Done()
	shutdown, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	log.Info("sandbox stopping") // a record, so that a JSON log stays JSON
	return srv.Shutdown(shutdown)
}

func printBanner(g *globals, ix *dataset.Index, url string, opts sandbox.Options) {
	ds := ix.Dataset()
	nodes := 0
	for _, c := range ds.Curricula {
		if c.Parent == "" {
			nodes += ix.NodeCount(c.ID)
		}
	}
	w := g.stdout
	fmt.Fprintf(w, "curex sandbox: serving the Curriculum Content API\n")
	fmt.Fprintf(w, "  dataset:  %d organizations, %d curricula and variants, %d nodes in base trees\n", len(ds.Organizations), len(ds.Curricula), nodes)
	fmt.Fprintf(w, "  base URL: %s\n", url)
	limits := "none"
	if opts.Limits.String() != "" {
		limits = opts.Limits.String() + " per token"
	}
	fmt.Fprintf(w, "  limits:   %s\n", limits)
	if len(opts.Faults) > 0 {
		fmt.Fprintf(w, "  faults:   %s (seed %d)\n", opts.Faults, opts.Seed)
	}
	if opts.Latency != (sandbox.Latency{}) {
		fmt.Fprintf(w, "  latency:  %s\n", opts.Latency)
	}
	if opts.Records == sandbox.RecordsPlain {
		fmt.Fprintf(w, "  records:  plain (fields at the top, no type)\n")
	}
	if len(ds.Tokens) > 0 {
		t := ds.Tokens[0]
		u := ix.User(t.User)
		fmt.Fprintf(w, "  token:    %s (%s, %s)\n", t.Token, u.Name, ix.Organization(u.Organization).Name)
		fmt.Fprintf(w, "\nTry it:\n  curl -H 'Authorization: Bearer %s' %s/api/v1/curricula\n", t.Token, url)
		fmt.Fprintf(w, "Export from it (its images are on this machine: --allow-private-assets lets them in):\n  CURRICULUM_API_TOKEN=%s curex export --base-url %s --allow-private-assets\n", t.Token, url)
	}
	fmt.Fprintln(w, "\nPress Ctrl-C to stop.")
}
