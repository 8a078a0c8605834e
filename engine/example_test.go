package engine_test

import (
	"fmt"

	"aeroplane/engine"
)

func ExampleParsePosition() {
	p, err := engine.ParsePosition("L,3,3,40/H,12,F,52/-/- B 1:1 -")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p.ToMove(), p.Sixes(), p.Plane(engine.Blue, 1), p.StackSize(engine.DefaultRules(), engine.Red, 1))
	fmt.Println(p)

	_, err = engine.ParsePosition("H,H,H,H/F,F,F,F/H,H,H,H/- R 0 -")
	fmt.Println(err)
	// Output:
	// Blue 1 12 2
	// L,3,3,40/H,12,F,52/-/- B 1:1 -
	// position "H,H,H,H/F,F,F,F/H,H,H,H/- R 0 -": Blue has finished but is missing from the finishing order
}

func ExamplePosition_Outcomes() {
	p, _ := engine.ParsePosition("3,L,3,H/-/H,H,H,H/- R 0 -")
	rules := engine.DefaultRules()
	for roll := 1; roll <= 6; roll++ {
		outs := p.Outcomes(rules, roll)
		fmt.Println(roll, outs.Slice())
	}
	// Output:
	// 1 [R0 R1]
	// 2 [R0 R1 R3]
	// 3 [R0 R1]
	// 4 [R0 R1 R3]
	// 5 [R0 R1]
	// 6 [R0 R1 R3]
}

func ExamplePosition_Play() {
	rules, _ := engine.ParseRules("flyjump=on")
	p, _ := engine.ParsePosition("14,H,H,H/20,16,H,H/-/- R 0 -")
	m, _ := engine.ParseMove("R0")
	q, res, err := p.Play(rules, 3, m)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(q)
	fmt.Println("landed", res.Landed, "flew to", res.FlyTo, "jumped to", res.FlyJumpTo, "captured", res.NCaptures)

	_, _, err = q.Play(rules, 2, m)
	fmt.Println(err)
	// Output:
	// 33,H,H,H/H,H,H,H/-/- B 0 -
	// landed 17 flew to 29 jumped to 33 captured 2
	// R0 is not legal for Blue with roll 2 in 33,H,H,H/H,H,H,H/-/- B 0 - (legal: [B0])
}

func ExamplePerft() {
	p, _ := engine.NewGame(engine.Red, engine.Yellow)
	for depth := 1; depth <= 4; depth++ {
		fmt.Println(depth, engine.Perft(p, engine.DefaultRules(), depth))
	}
	// Output:
	// 1 6
	// 2 39
	// 3 283
	// 4 2165
}
