// Command hello is the smallest binary, for testkit's builder test.
package main

import "fmt"

func main() { fmt.Println("hello from testkit") }
