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
	"fmt"
	"net/url"

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

// openBucket opens the bucket t names. An azblob:// URL needs a storage
// account from the environment or the URL; without one, the driver's own
// error would only say that Options.AccountName is required.
func openBucket(ctx context.Context, t target) (*blob.Bucket, error) {
	u, err := url.Parse(t.open)
	if err != nil {
		return nil, err
	}
	if u.Scheme == azureblob.Scheme && u.Query().Get("storage_account") == "" &&
		azureblob.NewDefaultServiceURLOptions().AccountName == "" {
		return nil, fmt.Errorf("%w: no storage account: set AZURE_STORAGE_ACCOUNT (with AZURE_STORAGE_KEY, "+
			"AZURE_STORAGE_SAS_TOKEN or an Azure identity: AZURE_CLIENT_ID and AZURE_TENANT_ID, a managed identity, az login), "+
			"or AZURE_STORAGE_CONNECTION_STRING, or add ?storage_account=NAME to the URL", ErrNoCredentials)
	}
	return blob.OpenBucket(ctx, t.open)
}
