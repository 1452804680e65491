// Package output writes a run's files into a staging folder beside the
// output folder and commits them at the end by swapping folders, so a failed
// or interrupted run leaves the previous output as it was. It keeps the list
// of files for manifest.json and can carry the previous version of a failed
// export over into the new output.
package output
