// Package publish copies a built curex output folder to object storage, as
// `curex publish DIR URL` and `curex export --output URL` do.
//
// It follows the shape of Hugo's deploy: one straight pipeline over a
// gocloud.dev/blob Bucket. Walk the local folder and hash every file; list
// the objects under the bucket prefix; diff; upload what changed with
// bounded parallelism, hashed assets first; upload manifest.json last;
// then, only when every upload succeeded, delete the objects the new
// output no longer has.
//
// # The diff
//
// An object is unchanged when its size and MD5 match the bytes the file
// would be stored as (gzip-compressed when Options.Gzip applies to it).
// When the bucket lists no MD5 for an object, or one that differs although
// the size matches (multipart uploads, server-side encryption with KMS,
// servers computing other ETags), the object's attributes are read (one
// HEAD) and it is unchanged when the SHA-256 recorded in its metadata at
// upload and its Content-Encoding match. The previous manifest.json in the
// bucket is not trusted for the diff: an interrupted publish may have
// replaced objects that it still lists with their old hashes. It only
// tells which stale objects are curex's to delete.
//
// # Ordering and consistency
//
// Objects are replaced one at a time, so while a publish runs a reader may
// see some new pages next to old ones. Hashed assets (assets/name.1a2b3c4d.css)
// get new names when their content changes and are all uploaded before any
// other file, so old pages keep working until they are replaced and new
// pages find their assets; manifest.json is written after every other file,
// so a reader of the manifest never finds it naming an object that is not
// there yet; stale objects are deleted only after the manifest. An
// interrupted or failed publish deletes nothing and leaves the previous
// manifest.json in place; the next publish converges.
//
// # Safety
//
// The folder is read through an os.Root: symbolic links are skipped and no
// path can leave it. Files and folders whose names start with a dot are not
// published, and objects whose keys could not be curex output paths (hidden
// segments, empty segments, a trailing slash) are never deleted; nothing
// outside the prefix is listed, written or deleted. A stale object is
// deleted only when curex put it there: the bucket's previous
// manifest.json lists it, or it carries the curex-sha256 metadata of an
// upload. Others (the owner's CNAME, ads.txt, verification files) are left
// alone and reported in Plan.LeftAlone. A file:// target is never written
// or deleted through a symbolic link inside it. A publish that would
// delete more than MassDeleteMin objects and more than a quarter of the
// objects under the prefix is refused unless Options.AllowMassDelete is set.
//
// # Schemes
//
// This build registers the s3 (AWS S3 and S3-compatible servers), azblob
// (Azure Blob Storage), file and mem drivers of gocloud.dev/blob; gs URLs
// are refused with an error naming the scheme (the Cloud Storage driver
// would add about 31 MB to the binary). Credentials come from the
// environment, never from the URL: for S3, AWS_ACCESS_KEY_ID,
// AWS_SECRET_ACCESS_KEY, AWS_PROFILE and the usual AWS SDK chain; for
// Azure, AZURE_STORAGE_ACCOUNT with AZURE_STORAGE_KEY,
// AZURE_STORAGE_SAS_TOKEN or an Azure identity, or
// AZURE_STORAGE_CONNECTION_STRING. An azblob URL without a storage account
// fails with ErrNoCredentials before any request.
package publish
