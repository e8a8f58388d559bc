package dyref

import "github.com/ambibench/ambibench/agents/housework"

// trial is a recorded trial of the household track: the first evaluation
// game of each task type (tasks/alfworld EvalGames, perturbation none),
// played by the housework planner told to skip treatments, so that the
// treat-then-place ones fail as a careless model's would.
type trial struct {
	name, instruction, room string
	turns                   []housework.Turn
}

// state is the trial as an agent holds it: the opening ends with the task,
// as ALFWorld's does, and Instruction is left to be read from it.
func (tr trial) state() housework.State {
	return housework.State{Opening: tr.room + "\n\nYour task is to: " + tr.instruction, Turns: tr.turns}
}

// with returns the trial with another instruction and extra turns.
func (tr trial) with(instruction string, extra ...housework.Turn) trial {
	if instruction != "" {
		tr.instruction = instruction
	}
	tr.turns = append(append([]housework.Turn(nil), tr.turns...), extra...)
	return tr
}

var trials = []trial{
	// eval/pick_and_place/00
	{name: "pick_and_place", instruction: "put some plate on diningtable.", room: "You are in the middle of a room. Looking quickly around you, you see a armchair 2, a armchair 1, a cabinet 4, a cabinet 3, a cabinet 2, a cabinet 1, a coffeetable 2, a coffeetable 1, a diningtable 1, a drawer 1, a dresser 1, a garbagecan 1, a shelf 1, a sidetable 2, a sidetable 1, and a sofa 1.", turns: []housework.Turn{
		{Command: "go to coffeetable 2", Observation: "You arrive at loc 14. On the coffeetable 2, you see a plate 1."},
		{Command: "take plate 1 from coffeetable 2", Observation: "You pick up the plate 1 from the coffeetable 2."},
		{Command: "go to diningtable 1", Observation: "You arrive at loc 10. On the diningtable 1, you see a box 1."},
		{Command: "put plate 1 in/on diningtable 1", Observation: "You put the plate 1 in/on the diningtable 1."},
	}},
	// eval/pick_clean_then_place/00
	{name: "pick_clean_then_place", instruction: "clean some dishsponge and put it in countertop.", room: "You are in the middle of a room. Looking quickly around you, you see a bathtubbasin 1, a cabinet 4, a cabinet 3, a cabinet 2, a cabinet 1, a countertop 1, a garbagecan 1, a handtowelholder 1, a sinkbasin 2, a sinkbasin 1, a toilet 1, and a toiletpaperhanger 1.", turns: []housework.Turn{
		{Command: "go to countertop 1", Observation: "You arrive at loc 10. On the countertop 1, you see nothing."},
		{Command: "go to sinkbasin 2", Observation: "You arrive at loc 3. On the sinkbasin 2, you see nothing."},
		{Command: "go to sinkbasin 1", Observation: "You arrive at loc 7. On the sinkbasin 1, you see nothing."},
		{Command: "go to cabinet 4", Observation: "You arrive at loc 2. The cabinet 4 is closed."},
		{Command: "open cabinet 4", Observation: "You open the cabinet 4. The cabinet 4 is open. In it, you see a soapbottle 1, a candle 1, a dishsponge 1, and a handtowel 1."},
		{Command: "take dishsponge 1 from cabinet 4", Observation: "You pick up the dishsponge 1 from the cabinet 4."},
		{Command: "go to countertop 1", Observation: "You arrive at loc 10. On the countertop 1, you see nothing."},
		{Command: "put dishsponge 1 in/on countertop 1", Observation: "You put the dishsponge 1 in/on the countertop 1."},
	}},
	// eval/pick_heat_then_place/00
	{name: "pick_heat_then_place", instruction: "heat some egg and put it in fridge.", room: "You are in the middle of a room. Looking quickly around you, you see a cabinet 4, a cabinet 3, a cabinet 2, a cabinet 1, a coffeemachine 1, a countertop 1, a diningtable 1, a drawer 6, a drawer 5, a drawer 4, a drawer 3, a drawer 2, a drawer 1, a fridge 1, a garbagecan 1, a microwave 1, a shelf 3, a shelf 2, a shelf 1, a sinkbasin 1, a stoveburner 4, a stoveburner 3, a stoveburner 2, a stoveburner 1, and a toaster 1.", turns: []housework.Turn{
		{Command: "go to countertop 1", Observation: "You arrive at loc 18. On the countertop 1, you see a potato 1, a ladle 1, a fork 1, and a bread 1."},
		{Command: "go to diningtable 1", Observation: "You arrive at loc 25. On the diningtable 1, you see a plate 3, a potato 3, a spatula 3, and a fork 2."},
		{Command: "go to garbagecan 1", Observation: "You arrive at loc 22. On the garbagecan 1, you see a egg 1."},
		{Command: "take egg 1 from garbagecan 1", Observation: "You pick up the egg 1 from the garbagecan 1."},
		{Command: "go to fridge 1", Observation: "You arrive at loc 1. The fridge 1 is closed."},
		{Command: "open fridge 1", Observation: "You open the fridge 1. The fridge 1 is open. In it, you see a potato 2, and a bread 2."},
		{Command: "put egg 1 in/on fridge 1", Observation: "You put the egg 1 in/on the fridge 1."},
	}},
	// eval/pick_cool_then_place/00
	{name: "pick_cool_then_place", instruction: "put a cool bowl in countertop.", room: "You are in the middle of a room. Looking quickly around you, you see a cabinet 5, a cabinet 4, a cabinet 3, a cabinet 2, a cabinet 1, a coffeemachine 1, a countertop 2, a countertop 1, a drawer 2, a drawer 1, a fridge 1, a garbagecan 1, a microwave 1, a shelf 2, a shelf 1, a sinkbasin 1, a stoveburner 2, a stoveburner 1, and a toaster 1.", turns: []housework.Turn{
		{Command: "go to countertop 2", Observation: "You arrive at loc 12. On the countertop 2, you see a soapbottle 1, a ladle 1, a spatula 1, a spatula 2, and a spoon 2."},
		{Command: "go to countertop 1", Observation: "You arrive at loc 4. On the countertop 1, you see a knife 1, a spatula 3, and a spoon 1."},
		{Command: "go to shelf 2", Observation: "You arrive at loc 5. On the shelf 2, you see a bowl 2."},
		{Command: "take bowl 2 from shelf 2", Observation: "You pick up the bowl 2 from the shelf 2."},
		{Command: "go to countertop 2", Observation: "You arrive at loc 12. On the countertop 2, you see a soapbottle 1, a ladle 1, a spatula 1, a spatula 2, and a spoon 2."},
		{Command: "put bowl 2 in/on countertop 2", Observation: "You put the bowl 2 in/on the countertop 2."},
	}},
	// eval/look_at_obj_in_light/00
	{name: "look_at_obj_in_light", instruction: "examine a creditcard with the desklamp.", room: "You are in the middle of a room. Looking quickly around you, you see a armchair 1, a bed 1, a desk 1, a drawer 4, a drawer 3, a drawer 2, a drawer 1, a garbagecan 1, a shelf 1, and a sidetable 1.", turns: []housework.Turn{
		{Command: "go to armchair 1", Observation: "You arrive at loc 4. On the armchair 1, you see a pillow 1."},
		{Command: "go to bed 1", Observation: "You arrive at loc 10. On the bed 1, you see a laptop 1, and a pillow 2."},
		{Command: "go to desk 1", Observation: "You arrive at loc 1. On the desk 1, you see a desklamp 1, a cellphone 1, a bowl 1, a laptop 2, and a mug 1."},
		{Command: "go to shelf 1", Observation: "You arrive at loc 9. On the shelf 1, you see a mug 3, a alarmclock 1, and a alarmclock 2."},
		{Command: "go to sidetable 1", Observation: "You arrive at loc 5. On the sidetable 1, you see a mug 2, and a pencil 3."},
		{Command: "go to drawer 4", Observation: "You arrive at loc 7. The drawer 4 is closed."},
		{Command: "open drawer 4", Observation: "You open the drawer 4. The drawer 4 is open. In it, you see nothing."},
		{Command: "go to drawer 3", Observation: "You arrive at loc 3. The drawer 3 is closed."},
		{Command: "open drawer 3", Observation: "You open the drawer 3. The drawer 3 is open. In it, you see a creditcard 1, and a pencil 1."},
		{Command: "take creditcard 1 from drawer 3", Observation: "You pick up the creditcard 1 from the drawer 3."},
		{Command: "go to desk 1", Observation: "You arrive at loc 1. On the desk 1, you see a desklamp 1, a cellphone 1, a bowl 1, a laptop 2, and a mug 1."},
		{Command: "use desklamp 1", Observation: "You turn on the desklamp 1."},
	}},
	// eval/pick_two_obj_and_place/00
	{name: "pick_two_obj_and_place", instruction: "find two handtowel and put them in cabinet.", room: "You are in the middle of a room. Looking quickly around you, you see a bathtubbasin 1, a cabinet 3, a cabinet 2, a cabinet 1, a countertop 1, a drawer 3, a drawer 2, a drawer 1, a garbagecan 1, a shelf 1, a sinkbasin 1, a toilet 1, and a toiletpaperhanger 1.", turns: []housework.Turn{
		{Command: "go to countertop 1", Observation: "You arrive at loc 5. On the countertop 1, you see a soapbottle 1, a handtowel 1, a handtowel 2, and a cloth 1."},
		{Command: "take handtowel 1 from countertop 1", Observation: "You pick up the handtowel 1 from the countertop 1."},
		{Command: "go to cabinet 3", Observation: "You arrive at loc 7. The cabinet 3 is closed."},
		{Command: "open cabinet 3", Observation: "You open the cabinet 3. The cabinet 3 is open. In it, you see nothing."},
		{Command: "put handtowel 1 in/on cabinet 3", Observation: "You put the handtowel 1 in/on the cabinet 3."},
		{Command: "go to countertop 1", Observation: "You arrive at loc 5. On the countertop 1, you see a soapbottle 1, a handtowel 2, and a cloth 1."},
		{Command: "take handtowel 2 from countertop 1", Observation: "You pick up the handtowel 2 from the countertop 1."},
		{Command: "go to cabinet 3", Observation: "You arrive at loc 7. The cabinet 3 is open. In it, you see a handtowel 1."},
		{Command: "put handtowel 2 in/on cabinet 3", Observation: "You put the handtowel 2 in/on the cabinet 3."},
	}},
}

// byName returns the recorded trial of a task type.
func byName(name string) trial {
	for _, tr := range trials {
		if tr.name == name {
			return tr
		}
	}
	panic("no trial " + name)
}
