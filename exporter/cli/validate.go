package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/curex/curex/exporter/internal/render/jsonbundle/treeschema"
)

// defaultMaxValidateBytes is the default of --max-bytes, the most curex
// validate reads of one document: the API client's cap on one response
// (256 MiB), which a tree.json is written from, and a stop for a runaway
// standard input (checking a document takes about three times its size
// in memory: 1 GB of spaces took 3.2 GB before there was a cap).
const defaultMaxValidateBytes = 256 << 20

// validateResult is what curex validate found of one file; with --json it
// is written as is.
type validateResult struct {
	// File is the name as given ("-" for standard input).
	File string `json:"file"`
	// Valid is true when the file is a tree.json that matches the schema.
	Valid bool `json:"valid"`
	// Problems are the failing locations, when the file is JSON.
	Problems []validateProblem `json:"problems,omitempty"`
	// Error says why the file could not be checked, or is not JSON.
	Error string `json:"error,omitempty"`
}

// validateProblem is one location where a document breaks the schema.
type validateProblem struct {
	// Location is the JSON Pointer of the failing value ("" for the
	// document).
	Location string `json:"location"`
	// Keyword is the JSON Pointer of the failing keyword in the schema.
	Keyword string `json:"keyword"`
	// Message says what is wrong.
	Message string `json:"message"`
}

func newValidateCommand(g *globals) *cobra.Command {
	var (
		asJSON   bool
		maxBytes int64
	)
	cmd := &cobra.Command{
		Use:   "validate FILE...",
		Short: "Check tree.json files against their JSON Schema",
		Long: `validate checks JSON bundles (tree.json, format curex.tree/v1) against the
JSON Schema that ships with curex (docs/schema/tree.schema.json, draft
2020-12, embedded in the binary), with date-time formats asserted. "-" reads
standard input.

It prints one line per file, "FILE: ok", or "FILE: N problems" followed by
one line per problem: the JSON Pointer of the failing value, what is wrong,
and the schema keyword. --json prints an array of results instead.

A document larger than --max-bytes (default 256 MiB) is not read past the
cap, and fails with an error naming it.

Exit codes: 0 every file matches; 1 a file does not match, is not JSON,
is larger than --max-bytes or cannot be read (the others are still
checked); 2 usage error.`,
		Example: `  curex validate output/bundles/algebra-1/texas/es/tree.json
  curex validate output/bundles/*/*/*/tree.json
  curl -s https://example.org/bundles/algebra-1/base/en/tree.json | curex validate -
  curex validate --json output/bundles/*/*/*/tree.json`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usageErr(fmt.Errorf("%s: want one or more files (\"-\" for standard input; see '%s --help')", cmd.CommandPath(), cmd.CommandPath()))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if maxBytes < 1 {
				return usageErr(fmt.Errorf("--max-bytes %d: want 1 or more", maxBytes))
			}
			return runValidate(g, cmd.InOrStdin(), args, asJSON, maxBytes)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the results as a JSON array")
	cmd.Flags().Int64Var(&maxBytes, "max-bytes", defaultMaxValidateBytes, "the most bytes read of one document (file or standard input); a larger one fails")
	return cmd
}

// runValidate checks each file and prints the results; it fails (exit 1)
// when any file does not pass.
func runValidate(g *globals, stdin io.Reader, files []string, asJSON bool, maxBytes int64) error {
	v, err := treeschema.NewValidator()
	if err != nil {
		return fmt.Errorf("validate: %w", err)
	}
	results := make([]validateResult, 0, len(files))
	failed := 0
	for _, name := range files {
		r := validateFile(v, stdin, name, maxBytes)
		if !r.Valid {
			failed++
		}
		results = append(results, r)
	}
	if asJSON {
		enc := json.NewEncoder(g.stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(results); err != nil {
			return fmt.Errorf("validate: %w", err)
		}
	} else {
		for _, r := range results {
			writeValidateResult(g.stdout, r)
		}
	}
	if failed > 0 {
		return fmt.Errorf("validate: %d of %d files did not pass", failed, len(files))
	}
	return nil
}

// validateFile reads and checks one file ("-" for stdin) of at most
// maxBytes.
func validateFile(v *treeschema.Validator, stdin io.Reader, name string, maxBytes int64) validateResult {
	r := validateResult{File: name}
	data, err := readValidateInput(stdin, name, maxBytes)
	if err != nil {
		r.Error = err.Error()
		return r
	}
	err = v.Validate(data)
	var syn *treeschema.SyntaxError
	var verr *treeschema.ValidationError
	switch {
	case err == nil:
		r.Valid = true
	case errors.As(err, &syn):
		r.Error = fmt.Sprintf("not JSON: at byte %d: %s", syn.Offset, syn.Msg)
	case errors.As(err, &verr):
		for _, p := range verr.Problems {
			r.Problems = append(r.Problems, validateProblem{Location: p.Location, Keyword: p.Keyword, Message: p.Message})
		}
	default:
		r.Error = err.Error()
	}
	return r
}

// errTooLarge is wrapped by the error of a document larger than the cap
// of curex validate (--max-bytes).
var errTooLarge = errors.New("larger than the cap")

// readValidateInput reads the file name, or stdin for "-", up to
// maxBytes: a file larger than that is refused before it is read, and
// standard input is read no further than one byte past it.
func readValidateInput(stdin io.Reader, name string, maxBytes int64) ([]byte, error) {
	in := stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() && fi.Size() > maxBytes {
			return nil, tooLarge(maxBytes)
		}
		in = f
	}
	data, err := io.ReadAll(io.LimitReader(in, maxBytes+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > maxBytes {
		return nil, tooLarge(maxBytes)
	}
	return data, nil
}

// tooLarge is the error of a document past the cap of maxBytes.
func tooLarge(maxBytes int64) error {
	return fmt.Errorf("%w of %d bytes (--max-bytes; a tree.json an export writes is smaller)", errTooLarge, maxBytes)
}

// writeValidateResult prints one file's result as text.
func writeValidateResult(w io.Writer, r validateResult) {
	switch {
	case r.Valid:
		fmt.Fprintf(w, "%s: ok\n", r.File)
	case r.Error != "":
		fmt.Fprintf(w, "%s: %s\n", r.File, r.Error)
	default:
		s := "s"
		if len(r.Problems) == 1 {
			s = ""
		}
		fmt.Fprintf(w, "%s: %d problem%s\n", r.File, len(r.Problems), s)
		for _, p := range r.Problems {
			loc := p.Location
			if loc == "" {
				loc = "(document)"
			}
			fmt.Fprintf(w, "  %s: %s [schema %s]\n", loc, p.Message, p.Keyword)
		}
	}
}
