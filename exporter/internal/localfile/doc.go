// Package localfile is the one gate for the local files a setting names:
// the site's logo, favicon and social image, the files of a theme folder
// and the token file. Every such file is opened here, and only here.
//
// The rules, in one place:
//
//   - A Ref carries a path with its provenance: the folder it is relative
//     to (the folder of the curex.yaml that names it, or the working
//     folder for a flag or a variable) and whether the operator named it
//     (command line, environment) or a file did. Resolve confines a path
//     a file names to that file's folder: no absolute path, no "..". A
//     path the operator names goes anywhere.
//   - No symlink is ever followed: not at the last component, not at any
//     component below the folder a file's path is confined to, not inside
//     a theme folder. Files are opened through an os.Root, and the file
//     opened must be the one Lstat saw (os.SameFile), so a swap between
//     the check and the open is caught.
//   - Regular files only, each kind with a size cap (MaxImage, MaxToken,
//     MaxThemeFile).
//   - The bytes must be what the name's extension says: images by their
//     decoders' headers, fonts by magic number, text as UTF-8, SVG parsed
//     and refused unless it keeps to a safe subset (CheckSVG).
//
// Errors wrap the sentinel errors (ErrSymlink, ErrNotRegular, ErrTooLarge,
// ErrEscapes, ErrContent) so callers can decide, and name the path; the
// caller adds the setting.
package localfile
