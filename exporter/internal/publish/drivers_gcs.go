//go:build gcs && !nopublish

package publish

import _ "gocloud.dev/blob/gcsblob" // gs:// (Google Cloud Storage)

// gcsSchemes: this build registers Google Cloud Storage's driver.
var gcsSchemes = []string{"gs"}
