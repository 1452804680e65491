// Package output writes a run's files into a staging folder beside the output
// folder (inside it when the folder above cannot be written or the output is
// a mount point) and commits them at the end by swapping folders, so a failed
// or interrupted run leaves the previous output as it was. It replaces only a
// folder that is curex's output or holds nothing of the user's, keeps the
// user's hidden entries across the swap, and reads the previous output without
// following links. It keeps the list of files for manifest.json and can carry
// the previous version of a failed export over into the new output.
package output
