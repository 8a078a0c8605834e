// Command aeroplane plays Aeroplane Chess (飞行棋) with friends on a local
// network: peer to peer, with dice that no one at the table can rig.
// Run it with no arguments to play; `aeroplane help` lists the other commands.
package main

import (
	"os"

	"aeroplane/internal/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
