//go:build race

package content

// raceFactor is 1 under the race detector, which slows goldmark down some
// twentyfold.
const raceFactor = 1
