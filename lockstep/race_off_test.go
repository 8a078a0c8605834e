//go:build !race

package lockstep

const raceOn = false
