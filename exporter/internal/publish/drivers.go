//go:build !nopublish

package publish

// The gocloud.dev/blob drivers this build registers on blob.DefaultURLMux.
// Keep supportedSchemes and docs/publish.md in step with them. A build with
// -tags nopublish registers none (drivers_nopublish.go).
// gcsblob (gs://) is registered only with -tags gcs (drivers_gcs.go): it
// adds about 31 MB to the binary (the Cloud Storage client with gRPC and
// its telemetry exporters), more than every other driver together.
import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"time"

	gcaws "gocloud.dev/aws"
	"gocloud.dev/blob"
	"gocloud.dev/blob/azureblob"  // azblob:// (Azure Blob Storage)
	_ "gocloud.dev/blob/fileblob" // file://
	_ "gocloud.dev/blob/memblob"  // mem://
	_ "gocloud.dev/blob/s3blob"   // s3:// (AWS S3 and S3-compatible servers)
)

// supportedSchemes are the gocloud.dev/blob drivers this build registers,
// in the order the documentation lists them; gcsSchemes adds gs in a build
// with -tags gcs (drivers_gcs.go).
var supportedSchemes = append([]string{"s3"}, append(gcsSchemes, "azblob", "file", "mem")...)

// openBucket opens the bucket t names, once preflight has passed.
func openBucket(ctx context.Context, t target) (*blob.Bucket, error) {
	if err := preflight(ctx, t); err != nil {
		return nil, err
	}
	return blob.OpenBucket(ctx, t.open)
}

// preflight is the gate of what a bucket's driver needs from the
// environment, run before any request (CheckURL, which curex export calls
// before its first API request, and openBucket): the drivers themselves
// find out only at the first request, after a whole export, and in the
// SDK's words. An azblob:// URL needs a storage account, from the
// environment or the URL (the driver would only say that
// Options.AccountName is required). An s3:// URL needs a region and
// credentials, resolved as the driver resolves them (gocloud's
// V2ConfigFromURLParams: the URL's region and profile, then the AWS SDK's
// environment, files and chain). Errors wrap ErrNoRegion or
// ErrNoCredentials and say what to set; none of them carries the SDK's
// text (for missing credentials, a long tale of the instance metadata
// service).
func preflight(ctx context.Context, t target) error {
	u, err := url.Parse(t.open)
	if err != nil {
		return err
	}
	switch u.Scheme {
	case azureblob.Scheme:
		if u.Query().Get("storage_account") == "" && azureblob.NewDefaultServiceURLOptions().AccountName == "" {
			return fmt.Errorf("%w: no storage account: set AZURE_STORAGE_ACCOUNT (with AZURE_STORAGE_KEY, "+
				"AZURE_STORAGE_SAS_TOKEN or an Azure identity: AZURE_CLIENT_ID and AZURE_TENANT_ID, a managed identity, az login), "+
				"or AZURE_STORAGE_CONNECTION_STRING, or add ?storage_account=NAME to the URL", ErrNoCredentials)
		}
	case "s3":
		return checkS3(ctx, u.Query())
	}
	return nil
}

// s3ConfigParams are the parameters of an s3:// URL that choose the AWS
// configuration (region, profile, credentials); the others are the
// driver's own and change neither.
var s3ConfigParams = []string{"region", "profile", "anonymous", "role", "endpoint", "fips", "dualstack", "hostname_immutable"}

// S3CredentialsTimeout bounds the look for S3 credentials (the AWS SDK's
// chain, whose last link asks the instance metadata service).
const S3CredentialsTimeout = 15 * time.Second

// checkS3 resolves the region and the credentials an s3:// bucket of the
// URL parameters q would be opened with (see preflight).
func checkS3(ctx context.Context, q url.Values) error {
	sub := url.Values{}
	for _, k := range s3ConfigParams {
		if q.Has(k) {
			sub[k] = q[k]
		}
	}
	cfg, err := gcaws.V2ConfigFromURLParams(ctx, sub)
	if err != nil {
		return fmt.Errorf("%w: the AWS configuration: %w", ErrBadURL, err)
	}
	if cfg.Region == "" {
		return fmt.Errorf("%w: add ?region=NAME to the URL (e.g. ?region=us-east-1), "+
			"or set AWS_REGION, or a region in the AWS profile (AWS_PROFILE, ~/.aws/config)", ErrNoRegion)
	}
	if anon, _ := strconv.ParseBool(sub.Get("anonymous")); anon { // a bad value failed above
		return nil
	}
	noCreds := fmt.Errorf("%w (AWS): set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE "+
		"(a profile of ~/.aws/credentials or ~/.aws/config, e.g. an SSO login), or run where a role provides them "+
		"(an EC2 instance, ECS or EKS); for a public bucket, add ?anonymous=true", ErrNoCredentials)
	if cfg.Credentials == nil {
		return noCreds
	}
	ctx, cancel := context.WithTimeout(ctx, S3CredentialsTimeout)
	defer cancel()
	creds, err := cfg.Credentials.Retrieve(ctx)
	if err != nil && errors.Is(err, context.Canceled) && ctx.Err() != nil {
		return err // the run was stopped, not the credentials missing
	}
	if err != nil || !creds.HasKeys() {
		return noCreds
	}
	return nil
}
