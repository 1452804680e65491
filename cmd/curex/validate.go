package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/curex/curex/exporter/render/jsonbundle/treeschema"
)

// maxValidateBytes bounds one document curex validate reads: far above
// the largest tree.json an export writes (max_tree_nodes nodes), and a
// stop for a runaway standard input.
const maxValidateBytes = 1 << 30

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
	var asJSON bool
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

Exit codes: 0 every file matches; 1 a file does not match, is not JSON or
cannot be read (the others are still checked); 2 usage error.`,
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
			return runValidate(g, cmd.InOrStdin(), args, asJSON)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the results as a JSON array")
	return cmd
}

// runValidate checks each file and prints the results; it fails (exit 1)
// when any file does not pass.
func runValidate(g *globals, stdin io.Reader, files []string, asJSON bool) error {
	v, err := treeschema.NewValidator()
	if err != nil {
		return fmt.Errorf("validate: %w", err)
	}
	results := make([]validateResult, 0, len(files))
	failed := 0
	for _, name := range files {
		r := validateFile(v, stdin, name)
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

// validateFile reads and checks one file ("-" for stdin).
func validateFile(v *treeschema.Validator, stdin io.Reader, name string) validateResult {
	r := validateResult{File: name}
	data, err := readValidateInput(stdin, name)
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

// readValidateInput reads the file name, or stdin for "-", up to
// maxValidateBytes.
func readValidateInput(stdin io.Reader, name string) ([]byte, error) {
	in := stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		in = f
	}
	data, err := io.ReadAll(io.LimitReader(in, maxValidateBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxValidateBytes {
		return nil, fmt.Errorf("larger than %d bytes", maxValidateBytes)
	}
	return data, nil
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
