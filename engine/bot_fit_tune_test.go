//go:build fittune

package engine

import (
	"flag"
	"fmt"
	"go/format"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
)

var (
	fitGames   = flag.Int("fit.games", 20000, "fit: games to record")
	fitEvery   = flag.Int("fit.every", 8, "fit: record one position in this many plies, on average")
	fitEps     = flag.Int("fit.eps", 5, "fit: percent of moves chosen at random (coverage)")
	fitExperts = flag.Int("fit.experts", 25, "fit: percent of games with one expert (one chance layer) among three greedy bots")
	fitSelf    = flag.Bool("fit.self", false, "fit: the expert in those games uses the fitted evaluation now in fitWeights")
	fitOffset  = flag.Int("fit.offset", 1_000_000, "fit: number of the first game; far from the games the tuning plays")
	fitIters   = flag.Int("fit.iters", 10, "fit: Newton steps")
	fitRoll    = flag.Int("fit.rollouts", 0, "fit: when above 0, record every outcome of the sampled rolls instead of the position, each labelled by this many greedy playouts (the same dice for every outcome)")
	fitRankIt  = flag.Int("fit.rank", 0, "fit: with -fit.rollouts, then this many Gauss-Newton steps fitting the mover's chance to the playouts' differences between the outcomes of one roll")
	fitOnly    = flag.String("fit.only", "", "fit: fit only these features (indices separated by '+'); the others stay 0")
	fitTD      = flag.Int("fit.td", 0, "fit: rounds of fitted value iteration after the outcome fit: each position's label becomes -fit.lambda of its outcome and the rest the model's expected chances one roll later")
	fitLambda  = flag.Int("fit.lambda", 20, "fit.td: percent of the label that is the game's outcome")
	fitTDMax   = flag.Bool("fit.tdmax", false, "fit.td: the mover one roll later plays the model's best move rather than greedy's")
	fitWrite   = flag.String("fit.write", "", "fit: write the weights as Go source to this file (e.g. bot_fit_weights.go)")
)

// fitSample is one recorded position: every colour's features in
// natural units (rolls, planes), the phase, and the colour that went on
// to finish first.
type fitSample struct {
	phase  float64
	f      [NumColours][fitNF]float64
	inPlay uint8
	wins   [NumColours]float64 // how often each colour finished first from here
	group  int                 // with -fit.rollouts: the sampled roll this is an outcome of
	mover  Colour              // with -fit.rollouts: who chose among the group
	over   bool                // a colour had finished: the model does not apply
	pos    Position            // the position, for -fit.td
	winner Colour              // who finished first in the game
}

func newFitSample(tb *expertTables, p *Position, stacks bool) fitSample {
	var fi [NumColours][fitNF]int32
	ph := tb.fitFeatures(p, stacks, &fi, 1<<fitNF-1)
	s := fitSample{phase: float64(ph) / fitPhaseOne, inPlay: p.inPlay, pos: *p}
	for c := range fi {
		for k := range fi[c] {
			s.f[c][k] = float64(fi[c][k]) / fitUnit
		}
	}
	return s
}

// fitPlayout plays p to its first finisher with greedy bots and returns it.
func fitPlayout(p Position, rules Rules, greedy Bot, dice Rand) Colour {
	for p.nOrder == 0 {
		roll := dice.Roll()
		outs := p.Outcomes(rules, roll)
		p.Apply(rules, roll, greedy.Choose(&p, rules, roll, &outs, dice.Uint64()))
	}
	return p.order[0]
}

// recordFitGames plays games and records positions with their winners.
func recordFitGames(t *testing.T, games, offset int) []fitSample {
	rules := DefaultRules()
	tb := expertTablesFor(rules)
	greedy, _ := NewBot("greedy")
	var out []fitSample
	cols := []Colour{Red, Blue, Yellow, Green}
	for g := 0; g < games; g++ {
		bots := []Bot{greedy, greedy, greedy, greedy}
		dice := NewRand(uint64(g+offset)*0x9e3779b97f4a7c15 + 7)
		if dice.Intn(100) < *fitExperts {
			e := &expertBot{maxDepth: 1, budget: expertLeafBudget, w: defaultExpertWeights}
			if *fitSelf {
				e.fit = &fitWeights
			}
			bots[dice.Intn(4)] = e
		}
		p, _ := NewGame(cols...)
		var rec []fitSample
		for p.nOrder == 0 {
			sample := dice.Intn(*fitEvery) == 0
			if sample && *fitRoll == 0 {
				rec = append(rec, newFitSample(tb, &p, !rules.NoStacks))
			}
			roll := dice.Roll()
			outs := p.Outcomes(rules, roll)
			if sample && *fitRoll > 0 && outs.Len() > 1 {
				seed := dice.Uint64()
				for k := 0; k < outs.Len(); k++ {
					q := p
					q.Apply(rules, roll, outs.At(k))
					s := newFitSample(tb, &q, !rules.NoStacks)
					s.group, s.mover, s.over = len(out), p.toMove, q.nOrder > 0
					if k > 0 {
						s.group = out[len(out)-1].group
					}
					if q.nOrder > 0 {
						s.wins[q.order[0]] = float64(*fitRoll)
					} else {
						for j := 0; j < *fitRoll; j++ {
							s.wins[fitPlayout(q, rules, greedy, NewRand(seed+uint64(j)*0x9e3779b97f4a7c15))]++
						}
					}
					out = append(out, s)
				}
			}
			seed := dice.Uint64()
			var m Move
			if dice.Intn(100) < *fitEps {
				m = outs.At(dice.Intn(outs.Len()))
			} else {
				m = bots[p.toMove].Choose(&p, rules, roll, &outs, seed)
			}
			p.Apply(rules, roll, m)
		}
		for i := range rec {
			rec[i].wins[p.order[0]] = 1
			rec[i].winner = p.order[0]
		}
		out = append(out, rec...)
	}
	return out
}

// fitDims is the number of fitted weights: a vector per knot.
const fitDims = fitKnots * fitNF

// fitBasis is the knot below phase and the weight of the knot above.
func fitBasis(phase float64) (int, float64) {
	x := phase * (fitKnots - 1)
	b := min(int(x), fitKnots-2)
	return b, x - float64(b)
}

// fitLogLik is the mean log-likelihood of the winners under theta.
func fitLogLik(samples []fitSample, theta []float64) float64 {
	ll, tot := 0.0, 0.0
	for i := range samples {
		s := &samples[i]
		sc, _ := fitScoresF(s, theta)
		_, top, z := fitSoftmax(sc, s.inPlay)
		n := 0.0
		for c := range sc {
			if s.wins[c] > 0 {
				ll += s.wins[c] * (sc[c] - top - math.Log(z))
				n += s.wins[c]
			}
		}
		tot += n
	}
	return ll / tot
}

func fitScoresF(s *fitSample, theta []float64) (sc [NumColours]float64, x [NumColours][2 * fitNF]float64) {
	b, a := fitBasis(s.phase)
	for c := range sc {
		for k := 0; k < fitNF; k++ {
			x[c][k] = s.f[c][k] * (1 - a)
			x[c][fitNF+k] = s.f[c][k] * a
			sc[c] += theta[b*fitNF+k]*x[c][k] + theta[(b+1)*fitNF+k]*x[c][fitNF+k]
		}
	}
	return sc, x
}

// fitNewton maximises the conditional-logit likelihood with a small ridge.
func fitNewton(t *testing.T, train, test []fitSample, iters int) []float64 {
	return fitNewtonFrom(t, train, test, iters, make([]float64, fitDims))
}

func fitNewtonFrom(t *testing.T, train, test []fitSample, iters int, theta []float64) []float64 {
	const ridge = 1.0
	for it := 0; it < iters; it++ {
		g := make([]float64, fitDims)
		h := make([]float64, fitDims*fitDims)
		for i := range train {
			s := &train[i]
			sc, x := fitScoresF(s, theta)
			b, _ := fitBasis(s.phase)
			pr, _, _ := fitSoftmax(sc, s.inPlay)
			var mu [2 * fitNF]float64
			for c := range pr {
				for j := range mu {
					mu[j] += pr[c] * x[c][j]
				}
			}
			off := b * fitNF
			n := 0.0
			for c := range pr {
				n += s.wins[c]
				for j := range mu {
					g[off+j] += s.wins[c] * x[c][j]
				}
			}
			for j := range mu {
				g[off+j] -= n * mu[j]
			}
			for c := range pr {
				if pr[c] == 0 {
					continue
				}
				for j := range mu {
					d := n * pr[c] * (x[c][j] - mu[j])
					if d == 0 {
						continue
					}
					row := h[(off+j)*fitDims+off:]
					for l := range mu {
						row[l] += d * (x[c][l] - mu[l])
					}
				}
			}
		}
		for j := range g {
			g[j] -= ridge * theta[j]
			h[j*fitDims+j] += ridge
		}
		if *fitOnly != "" {
			keep := map[int]bool{}
			for _, f := range strings.Split(*fitOnly, "+") {
				k, _ := strconv.Atoi(f)
				keep[k] = true
			}
			for j := range g {
				if keep[j%fitNF] {
					continue
				}
				g[j] = 0
				for l := 0; l < fitDims; l++ {
					h[j*fitDims+l], h[l*fitDims+j] = 0, 0
				}
				h[j*fitDims+j] = 1
			}
		}
		d := solveSPD(h, g, fitDims)
		for j := range theta {
			theta[j] += d[j]
		}
		t.Logf("step %d: train log-lik %.5f, test %.5f", it, fitLogLik(train, theta), fitLogLik(test, theta))
	}
	return theta
}

// solveSPD solves h·x = g for a symmetric positive definite h (Cholesky).
func solveSPD(h, g []float64, n int) []float64 {
	l := make([]float64, n*n)
	for i := 0; i < n; i++ {
		for j := 0; j <= i; j++ {
			s := h[i*n+j]
			for k := 0; k < j; k++ {
				s -= l[i*n+k] * l[j*n+k]
			}
			if i == j {
				l[i*n+i] = math.Sqrt(max(s, 1e-12))
			} else {
				l[i*n+j] = s / l[j*n+j]
			}
		}
	}
	y := make([]float64, n)
	for i := 0; i < n; i++ {
		s := g[i]
		for k := 0; k < i; k++ {
			s -= l[i*n+k] * y[k]
		}
		y[i] = s / l[i*n+i]
	}
	x := make([]float64, n)
	for i := n - 1; i >= 0; i-- {
		s := y[i]
		for k := i + 1; k < n; k++ {
			s -= l[k*n+i] * x[k]
		}
		x[i] = s / l[i*n+i]
	}
	return x
}

var fitNames = [fitNF]string{"prog", "out", "launch", "home", "fin", "stack", "loss", "lossMove", "threat", "threatMove", "toMove", "next", "next2", "sixes", "mobility", "hand"}

// TestFitEval records games, fits the weights and prints them (and with
// -fit.write, writes them as Go source):
//
//	go test -tags fittune ./engine -run TestFitEval -fit.games 20000 -fit.write bot_fit_weights.go
func TestFitEval(t *testing.T) {
	samples := recordFitGames(t, *fitGames, *fitOffset)
	cut := len(samples) * 9 / 10
	train, test := samples[:cut], samples[cut:]
	t.Logf("%d positions from %d games (%d to fit, %d held out); uniform log-lik %.5f", len(samples), *fitGames, len(train), len(test), -math.Log(4))
	theta := fitNewton(t, train, test, *fitIters)
	for r := 0; r < *fitTD; r++ {
		fitRelabel(train, theta)
		fitRelabel(test, theta)
		theta = fitNewtonFrom(t, train, test, 3, theta)
	}
	if *fitRankIt > 0 {
		theta = fitRanks(t, train, test, theta, *fitRankIt)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "// Code generated by TestFitEval (go test -tags fittune ./engine -run TestFitEval); DO NOT EDIT.\n\n")
	fmt.Fprintf(&b, "package engine\n\n")
	fmt.Fprintf(&b, "// fitWeights are the fitted evaluation's weights in 1/fitScale nats per\n")
	fmt.Fprintf(&b, "// roll or plane, one vector per knot of the game's progress. Fitted on %d\n", len(train))
	fmt.Fprintf(&b, "// positions of %d games (-fit.games %d -fit.offset %d -fit.eps %d -fit.experts %d\n", *fitGames, *fitGames, *fitOffset, *fitEps, *fitExperts)
	fmt.Fprintf(&b, "// -fit.self=%v -fit.every %d -fit.rollouts %d -fit.td %d -fit.rank %d -fit.only '%s');\n", *fitSelf, *fitEvery, *fitRoll, *fitTD, *fitRankIt, *fitOnly)
	fmt.Fprintf(&b, "// mean log-likelihood of the winner on %d held-out positions %.4f\n", len(test), fitLogLik(test, theta))
	fmt.Fprintf(&b, "// (uniform: %.4f).\n", -math.Log(4))
	fmt.Fprintf(&b, "var fitWeights = [fitKnots][fitNF]int32{\n")
	for kn := 0; kn < fitKnots; kn++ {
		fmt.Fprintf(&b, "\t{")
		for k := 0; k < fitNF; k++ {
			if k > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "%d", int32(math.Round(theta[kn*fitNF+k]*fitScale)))
		}
		fmt.Fprintf(&b, "}, // phase %d/%d\n", kn, fitKnots-1)
	}
	fmt.Fprintf(&b, "}\n")
	var tbl strings.Builder
	for k := 0; k < fitNF; k++ {
		fmt.Fprintf(&tbl, "%-10s", fitNames[k])
		for kn := 0; kn < fitKnots; kn++ {
			fmt.Fprintf(&tbl, " %8.3f", theta[kn*fitNF+k])
		}
		tbl.WriteString("\n")
	}
	t.Logf("weights (nats per roll or plane) by phase:\n%s", tbl.String())
	if *fitWrite != "" {
		src, err := format.Source([]byte(b.String()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(*fitWrite, src, 0o644); err != nil {
			t.Fatal(err)
		}
	} else {
		t.Log(b.String())
	}
}

// fitRankLoss is, for every sampled roll, the squared error of the
// mover's chance after each outcome against the playouts' rate, both
// taken less their mean over the roll's outcomes; with grad it also
// returns the Gauss-Newton system (J'J, -J'r).
func fitRankLoss(samples []fitSample, theta []float64, grad bool) (loss float64, h, g []float64) {
	if grad {
		h, g = make([]float64, fitDims*fitDims), make([]float64, fitDims)
	}
	n := 0
	for i := 0; i < len(samples); {
		j := i
		for j < len(samples) && samples[j].group == samples[i].group {
			j++
		}
		k := j - i
		u := make([]float64, k)
		y := make([]float64, k)
		jac := make([][]float64, k)
		for a := 0; a < k; a++ {
			s := &samples[i+a]
			tot := 0.0
			for c := range s.wins {
				tot += s.wins[c]
			}
			y[a] = s.wins[s.mover] / tot
			jac[a] = make([]float64, fitDims)
			if s.over {
				u[a] = y[a]
				continue
			}
			sc, x := fitScoresF(s, theta)
			b, _ := fitBasis(s.phase)
			pr, _, _ := fitSoftmax(sc, s.inPlay)
			u[a] = pr[s.mover]
			if grad {
				for l := 0; l < 2*fitNF; l++ {
					mu := 0.0
					for c := range pr {
						mu += pr[c] * x[c][l]
					}
					jac[a][b*fitNF+l] = u[a] * (x[s.mover][l] - mu)
				}
			}
		}
		mu, my := 0.0, 0.0
		for a := 0; a < k; a++ {
			mu += u[a] / float64(k)
			my += y[a] / float64(k)
		}
		mj := make([]float64, fitDims)
		if grad {
			for a := 0; a < k; a++ {
				for l := range mj {
					mj[l] += jac[a][l] / float64(k)
				}
			}
		}
		for a := 0; a < k; a++ {
			r := (u[a] - mu) - (y[a] - my)
			loss += r * r
			n++
			if !grad {
				continue
			}
			d := make([]float64, fitDims)
			nz := d[:0]
			_ = nz
			for l := range d {
				d[l] = jac[a][l] - mj[l]
			}
			for l := range d {
				if d[l] == 0 {
					continue
				}
				g[l] -= d[l] * r
				row := h[l*fitDims:]
				for m := range d {
					row[m] += d[l] * d[m]
				}
			}
		}
		i = j
	}
	return loss / float64(n), h, g
}

// fitRanks refines theta by damped Gauss-Newton on fitRankLoss.
func fitRanks(t *testing.T, train, test []fitSample, theta []float64, iters int) []float64 {
	lambda := 1e-3
	cur, _, _ := fitRankLoss(train, theta, false)
	tl, _, _ := fitRankLoss(test, theta, false)
	t.Logf("rank fit start: train %.6f test %.6f", cur, tl)
	for it := 0; it < iters; it++ {
		_, h, g := fitRankLoss(train, theta, true)
		for {
			hh := append([]float64(nil), h...)
			for j := 0; j < fitDims; j++ {
				hh[j*fitDims+j] += lambda*hh[j*fitDims+j] + 1e-6
			}
			d := solveSPD(hh, g, fitDims)
			next := append([]float64(nil), theta...)
			for j := range next {
				next[j] += d[j]
			}
			l, _, _ := fitRankLoss(train, next, false)
			if l < cur {
				theta, cur = next, l
				lambda /= 3
				break
			}
			lambda *= 10
			if lambda > 1e6 {
				return theta
			}
		}
		tl, _, _ := fitRankLoss(test, theta, false)
		t.Logf("rank step %d: train %.6f test %.6f (lambda %g)", it, cur, tl, lambda)
	}
	return theta
}

// fitChances is the model's chance for each colour to finish first in p.
func fitChances(tb *expertTables, p *Position, theta []float64) [NumColours]float64 {
	var pr [NumColours]float64
	if p.nOrder > 0 {
		pr[p.order[0]] = 1
		return pr
	}
	s := newFitSample(tb, p, true)
	sc, _ := fitScoresF(&s, theta)
	pr, _, _ = fitSoftmax(sc, p.inPlay)
	return pr
}

// fitSoftmax is each colour in play's chance under scores sc, with the
// largest score top and the sum z of exp(sc - top) (log-likelihoods need
// them: the chances alone may underflow).
func fitSoftmax(sc [NumColours]float64, inPlay uint8) (pr [NumColours]float64, top, z float64) {
	top = math.Inf(-1)
	for c := range sc {
		if inPlay&(1<<c) != 0 {
			top = max(top, sc[c])
		}
	}
	for c := range sc {
		if inPlay&(1<<c) != 0 {
			pr[c] = math.Exp(sc[c] - top)
			z += pr[c]
		}
	}
	for c := range pr {
		pr[c] /= z
	}
	return pr, top, z
}

// fitRelabel sets every sample's label to -fit.lambda of its game's
// outcome and the rest the model's chances one roll later.
func fitRelabel(samples []fitSample, theta []float64) {
	rules := DefaultRules()
	tb := expertTablesFor(rules)
	greedy, _ := NewBot("greedy")
	lam := float64(*fitLambda) / 100
	for i := range samples {
		s := &samples[i]
		p := s.pos
		var tgt [NumColours]float64
		for roll := 1; roll <= 6; roll++ {
			outs := p.Outcomes(rules, roll)
			var best [NumColours]float64
			if *fitTDMax && outs.Len() > 1 {
				for k := 0; k < outs.Len(); k++ {
					q := p
					q.Apply(rules, roll, outs.At(k))
					if pr := fitChances(tb, &q, theta); k == 0 || pr[p.toMove] > best[p.toMove] {
						best = pr
					}
				}
			} else {
				q := p
				q.Apply(rules, roll, greedy.Choose(&p, rules, roll, &outs, uint64(i*6+roll)))
				best = fitChances(tb, &q, theta)
			}
			for c := range tgt {
				tgt[c] += best[c] / 6
			}
		}
		for c := range tgt {
			s.wins[c] = (1 - lam) * tgt[c]
		}
		s.wins[s.winner] += lam
	}
}
