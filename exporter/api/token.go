package api

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/curex/curex/exporter/internal/localfile"
)

// EnvToken is the environment variable TokenFromEnv reads.
const EnvToken = "CURRICULUM_API_TOKEN"

// ErrNoToken is wrapped by the errors of TokenFromEnv and ReadTokenFile
// when there is no token at all (an unset variable, an empty file), so a
// caller can try another source.
var ErrNoToken = errors.New("no API token")

// TokenFromEnv returns the token in the CURRICULUM_API_TOKEN environment
// variable, without surrounding white space. It fails, wrapping ErrNoToken,
// when the variable is unset or blank, and when the value spans several
// lines or holds characters a token cannot hold. No error names the token.
func TokenFromEnv() (string, error) {
	return TokenFromVar(EnvToken)
}

// TokenFromVar returns the token in the environment variable name, as
// TokenFromEnv does for CURRICULUM_API_TOKEN.
func TokenFromVar(name string) (string, error) {
	v, ok := os.LookupEnv(name)
	if !ok {
		return "", fmt.Errorf("api: environment variable %s is not set: %w", name, ErrNoToken)
	}
	return parseToken(v, "environment variable "+name)
}

// ReadTokenFile returns the token stored in the file at path, without
// surrounding white space (a trailing newline or a byte-order mark is
// fine). It fails, wrapping ErrNoToken, when the file is empty or blank,
// and when it holds more than one line or more than 4 KiB. No error names
// the token. It is TokenFromFile of a path the caller names.
func ReadTokenFile(path string) (string, error) {
	return TokenFromFile(context.Background(), localfile.OperatorRef(path))
}

// TokenFromFile returns the token in the file ref names, read through the
// gate of local files (package localfile: no symlink, a regular file of
// at most localfile.MaxToken bytes), as ReadTokenFile does.
func TokenFromFile(ctx context.Context, ref localfile.Ref) (string, error) {
	b, err := localfile.ReadFile(ctx, ref, localfile.Token)
	if errors.Is(err, localfile.ErrTooLarge) {
		return "", fmt.Errorf("api: token file %s is larger than %s: it does not look like a token file: %w", ref.Path, formatBytes(localfile.MaxToken), err)
	}
	if err != nil {
		return "", fmt.Errorf("api: read token file: %w", err)
	}
	return parseToken(string(b), "token file "+ref.Path)
}

// parseToken trims and checks a token read from source.
func parseToken(s, source string) (string, error) {
	s = strings.TrimSpace(strings.TrimPrefix(s, "\uFEFF"))
	if s == "" {
		return "", fmt.Errorf("api: %s is empty: %w", source, ErrNoToken)
	}
	if strings.ContainsAny(s, "\r\n") {
		return "", fmt.Errorf("api: %s holds more than one line; it must hold only the token", source)
	}
	if err := checkToken(s); err != nil {
		return "", fmt.Errorf("api: %s: %w", source, err)
	}
	return s, nil
}

// checkToken checks that a token can travel in an Authorization header:
// visible ASCII characters only (RFC 6750 tokens use a subset). The error
// never repeats the token.
func checkToken(token string) error {
	if token == "" {
		return fmt.Errorf("empty token: %w", ErrNoToken)
	}
	for i := 0; i < len(token); i++ {
		if c := token[i]; c <= ' ' || c >= 0x7f {
			return fmt.Errorf("the token holds white space, control or non-ASCII characters (at byte %d of %d)", i+1, len(token))
		}
	}
	return nil
}
