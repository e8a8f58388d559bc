package housework

// DecideUnremembered is Decide folding every turn of s from the opening,
// with nothing taken from foldMemo or left in it: what Decide must give.
func DecideUnremembered(s State) Decision {
	p, bad := newPlanner(s)
	if bad != nil {
		return *bad
	}
	for _, tu := range s.Turns {
		p.fold(tu)
	}
	return p.decide()
}
