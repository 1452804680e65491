// Package starter writes a starting theme folder (`curex theme init
// DIR`): a worked example that adds a style sheet through the "styles"
// block, a README, and, for reference, every block of the default
// templates and every file of the default theme under reference/, which
// curex never reads (render.IsThemeFile), so copying one up to the top
// of the folder is how a publisher starts overriding it.
package starter
