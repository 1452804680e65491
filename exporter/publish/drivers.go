package publish

// The gocloud.dev/blob drivers this build registers on blob.DefaultURLMux.
// Keep supportedSchemes in url.go and docs/publish.md in step with them.
import (
	_ "gocloud.dev/blob/fileblob" // file://
	_ "gocloud.dev/blob/memblob"  // mem://
	_ "gocloud.dev/blob/s3blob"   // s3:// (AWS S3 and S3-compatible servers)
)
