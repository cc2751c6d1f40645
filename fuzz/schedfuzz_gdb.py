# schedfuzz_gdb.py - gdb commands over the scheduling steps of a program
# built with schedfuzz-cc, loaded by `schedfuzz debug` (docs/debugging.md).
#
# The runtime (runtime/rt_debug.c) stops at step SCHEDFUZZ_DEBUG_STEP by
# calling __schedfuzz_step_stop, where our breakpoint is, after writing
# the state in the report's words to __schedfuzz_debug_text. Steps are the
# report's: step N is the Nth event of the interleaving, and a stop there
# is after the thread that performs it was picked, before its operation.
# Going forward writes the next step to stop at into the runtime and
# continues; going back runs the program again (the replay is
# deterministic) with SCHEDFUZZ_DEBUG_STEP set to the step. gdb's fork
# checkpoints are no help here: a fork copies one thread of the program.
#
# The user plays the scheduler with sf next-thread: the runtime takes the
# thread written into __schedfuzz_debug_next_thread at its next pick and
# the default rule after that, and keeps the schedule so far as an
# explicit genome (__schedfuzz_debug_input), which sf save writes and
# which a run again after that replays (the input no longer describes the
# execution).
import os
import tempfile

import gdb

STOP_FUNCTION = "__schedfuzz_step_stop"
GENOME_HEADER, DECISION_BYTES = 96, 5


def _value(expr):
    return gdb.parse_and_eval(expr)


def live():
    """Is there a process that has the runtime loaded?"""
    inf = gdb.selected_inferior()
    if not inf.is_valid() or inf.pid == 0:
        return False
    try:
        _value("(unsigned long)&__schedfuzz_debug_steps")
    except gdb.error:
        return False
    return True


def current_step():
    """The live execution's step counter (the last step logged), or None."""
    if not live():
        return None
    try:
        return int(_value("**(unsigned long long **)&__schedfuzz_debug_steps"))
    except gdb.error:
        return None


# Set once the user has played the scheduler: the execution is no longer
# the input's, its length unknown; a run again replays this file.
_steered = {"on": False, "input": None}


def last_step():
    """The number of steps of the execution, when `schedfuzz debug` said."""
    if _steered["on"]:
        return None
    text = os.environ.get("SCHEDFUZZ_DEBUG_LAST", "")
    return int(text) if text.isdigit() else None


def state_text():
    """The state the runtime wrote at its last stop: (step, where, threads, lwps, site)."""
    text = _value("(const char *)&__schedfuzz_debug_text").string()
    if not text.startswith("@where "):
        return None
    head, _, rest = text.partition("\n")
    step, site = int(head.split()[1]), int(head.split()[2], 16)
    where, _, rest = rest.partition("==schedfuzz== threads:\n")
    threads, lwps = [], {}
    for line in rest.splitlines():
        if line.startswith("@lwp "):
            _, tid, lwp, stands = line.split()
            lwps[int(tid)] = (int(lwp), int(stands, 16))
        else:
            threads.append(line)
    return step, where.rstrip("\n"), threads, lwps, site


def gdb_thread_of_lwp(lwp):
    for th in gdb.selected_inferior().threads():
        if th.ptid[1] == lwp:
            return th
    return None


def runtime_code():
    """The runtime's code section: frames there are the runtime's, not the program's."""
    lo = int(_value("((unsigned long *)&__schedfuzz_debug_code)[0]"))
    hi = int(_value("((unsigned long *)&__schedfuzz_debug_code)[1]"))
    return lo, hi


# Runtime functions the wrapper compiles into the program's own code.
RUNTIME_PREFIXES = ("__schedfuzz_", "__tsan_", "__sanitizer_cov_", "__wrap_")


def in_runtime(frame, code):
    if code[0] <= frame.pc() < code[1]:
        return True
    outer = frame
    while outer is not None and outer.type() == gdb.INLINE_FRAME:
        outer = outer.older()
    name = outer.name() if outer is not None else None
    return bool(name) and name.startswith(RUNTIME_PREFIXES)


def select_program_frame(site=0):
    """Select the program's frame at a site: the one that returns to it
    (the innermost, when the call was inlined), else the innermost outside
    the runtime."""
    frame = gdb.newest_frame()
    while site and frame is not None and frame.pc() != site:
        frame = frame.older()
    if frame is None or not site:
        code = runtime_code()
        frame = gdb.newest_frame()
        while frame is not None and in_runtime(frame, code):
            frame = frame.older()
    if frame is not None:
        frame.select()
    return frame


def select_step_frame():
    """In the thread at the runtime's stop: the frame of the step's site."""
    state = state_text()
    return select_program_frame(state[4] if state else 0)


class StepStop(gdb.Breakpoint):
    """The runtime's stop: silent, the stop handler says where it is."""

    def __init__(self):
        super().__init__(STOP_FUNCTION, internal=True)
        self.silent = True


_stop_bp = None


def ensure_breakpoint():
    global _stop_bp
    if _stop_bp is None or not _stop_bp.is_valid():
        _stop_bp = StepStop()


def set_step_variables():
    step = current_step()
    gdb.set_convenience_variable("sf_step", step)
    gdb.set_convenience_variable("sf_last", last_step())


def at_our_stop(event):
    return isinstance(event, gdb.BreakpointEvent) and _stop_bp is not None and \
        any(b is _stop_bp for b in event.breakpoints)


def on_stop(event):
    set_step_variables()
    if not at_our_stop(event):
        return
    select_step_frame()
    print_where()


def on_exit(event):
    gdb.set_convenience_variable("sf_step", None)


def print_where():
    state = state_text()
    step = current_step()
    if state is None or step is None:
        raise gdb.GdbError("sf: no scheduling step to show (the program is not stopped at one)")
    at, where = state[0], state[1]
    last = last_step()
    failure = "" if _steered["on"] else os.environ.get("SCHEDFUZZ_DEBUG_FAILURE", "")
    total = " of %d" % last if last else ""
    if last and step == last and failure:
        total += ", the last before the %s" % failure
    if at != step:
        print("step %d%s; the state below is of step %d, where the runtime last stopped "
              "(sf goto %d shows this one):" % (step, total, at, step))
    else:
        print("step %d%s:" % (step, total))
    print(where)
    frame = gdb.selected_frame()
    sal = frame.find_sal()
    if sal.symtab is not None and sal.line:
        print("gdb: thread %d, frame #%d: %s at %s:%d" % (
            gdb.selected_thread().num, frame.level(), frame.name() or "??",
            os.path.basename(sal.symtab.filename), sal.line))


def parse_count(arg, default):
    arg = arg.strip()
    if not arg:
        return default
    try:
        n = int(_value(arg))
    except gdb.error as e:
        raise gdb.GdbError("sf: %s is no number: %s" % (arg, e))
    return n


def stop_at(step):
    gdb.execute("set var *(unsigned long long *)&__schedfuzz_debug_stop_at = %d" % step,
                to_string=True)


def check_target(step):
    if step < 1:
        raise gdb.GdbError("sf: steps are numbered from 1")
    last = last_step()
    if last and step > last:
        raise gdb.GdbError("sf: step %d: the execution has %d steps (`continue` runs it "
                           "to its end)" % (step, last))


def landed(step):
    now = current_step()
    if now is None:
        raise gdb.GdbError("sf: the program ended before step %d" % step)
    if now != step:
        raise gdb.GdbError("sf: stopped at step %d, before step %d (a breakpoint or a "
                           "signal of the program's)" % (now, step))


def forward_to(step):
    stop_at(step)
    gdb.execute("continue")
    landed(step)


def restart_at(step):
    """Run the program again from its start, to stop at step."""
    ensure_breakpoint()
    if _steered["on"] and live():
        # the schedule the user made, not the input's
        if _steered["input"] is None:
            fd, _steered["input"] = tempfile.mkstemp(prefix="schedfuzz-steered-")
            os.close(fd)
        write_schedule(_steered["input"])
        gdb.execute("set environment SCHEDFUZZ_INPUT %s" % _steered["input"], to_string=True)
        # its decisions are this binary's: no anchors of a portable input
        gdb.execute("unset environment SCHEDFUZZ_ANCHORS", to_string=True)
        gdb.execute("unset environment SCHEDFUZZ_INPUT_NAME", to_string=True)
    gdb.execute("set environment SCHEDFUZZ_DEBUG_STEP %d" % step, to_string=True)
    confirm = gdb.parameter("confirm")
    gdb.execute("set confirm off")
    try:
        gdb.execute("run")
    finally:
        gdb.execute("set confirm %s" % ("on" if confirm else "off"))
    landed(step)


def input_path():
    """The input the running program replays."""
    return _steered["input"] or os.environ.get("SCHEDFUZZ_INPUT", "")


def schedule_bytes():
    """The schedule so far, as an input: the runtime's explicit genome of
    the decisions taken up to its last stop, then a harness's data."""
    size = int(_value("__schedfuzz_debug_input_size"))
    if size == 0:
        raise gdb.GdbError("sf save: the runtime has no schedule to give (out of memory)")
    addr = int(_value("(unsigned long)__schedfuzz_debug_input"))
    genome = bytes(gdb.selected_inferior().read_memory(addr, size))
    data_at = int(_value("__schedfuzz_debug_data_offset"))
    data = b""
    if data_at != (1 << 64) - 1:
        with open(input_path(), "rb") as f:
            data = f.read()[data_at:]
    return genome, data


def write_schedule(path):
    genome, data = schedule_bytes()
    with open(path, "wb") as f:
        f.write(genome + data)
    return len(genome), len(data)


class SfPrefix(gdb.Command):
    """schedfuzz: the scheduling steps of the replay `schedfuzz debug` runs.

Steps are numbered as the report, `schedfuzz replay` and the HTML timeline
number them. A stop at step N is after the thread that performs step N was
picked, before its operation. $sf_step is the current step, $sf_last the
number of steps of the execution."""

    def __init__(self):
        super().__init__("sf", gdb.COMMAND_RUNNING, prefix=True)


class SfStart(gdb.Command):
    """Run the program to the step schedfuzz debug was given.
That is SCHEDFUZZ_DEBUG_STEP; `schedfuzz debug` runs this first."""

    def __init__(self):
        super().__init__("sf start", gdb.COMMAND_RUNNING)

    def invoke(self, arg, from_tty):
        text = os.environ.get("SCHEDFUZZ_DEBUG_STEP", "")
        if not text.isdigit():
            raise gdb.GdbError("sf start: run under schedfuzz debug (SCHEDFUZZ_DEBUG_STEP is unset)")
        restart_at(int(text))


class SfWhere(gdb.Command):
    """The current step's line of the interleaving, as the report prints it.
The thread, the operation and its site; then gdb's thread and frame."""

    def __init__(self):
        super().__init__("sf where", gdb.COMMAND_STATUS)

    def invoke(self, arg, from_tty):
        if not live():
            raise gdb.GdbError("sf where: the program is not running")
        print_where()


class SfThreads(gdb.Command):
    """Every thread at the current step, as the report lists them.
Running, runnable, or blocked on what, and what it holds; then gdb's
number for each thread."""

    def __init__(self):
        super().__init__("sf threads", gdb.COMMAND_STATUS)

    def invoke(self, arg, from_tty):
        if not live():
            raise gdb.GdbError("sf threads: the program is not running")
        state = state_text()
        if state is None:
            raise gdb.GdbError("sf threads: the runtime has not stopped at a step yet")
        at, threads, lwps = state[0], state[2], state[3]
        step = current_step()
        if step != at:
            print("(the threads at step %d, where the runtime last stopped; now at step %d)"
                  % (at, step))
        print("\n".join(threads))
        names = []
        for tid in sorted(lwps):
            th = gdb_thread_of_lwp(lwps[tid][0])
            if th is not None:
                names.append("T%d=%d" % (tid, th.num))
        if names:
            print("gdb threads: " + " ".join(names) + "  (sf thread T selects one)")


class SfThread(gdb.Command):
    """Select thread T of the execution in gdb: sf thread T1 (or 1).
gdb's frame is then the program's, where that thread stands."""

    def __init__(self):
        super().__init__("sf thread", gdb.COMMAND_STACK)

    def invoke(self, arg, from_tty):
        name = arg.strip().lstrip("Tt")
        if not name.isdigit():
            raise gdb.GdbError("sf thread: give a thread of the execution, as T1 or 1")
        state = state_text() if live() else None
        if state is None:
            raise gdb.GdbError("sf thread: the program is not stopped at a step")
        lwp, site = state[3].get(int(name), (-1, 0))
        th = gdb_thread_of_lwp(lwp)
        if th is None:
            raise gdb.GdbError("sf thread: T%s is not a live thread at this step" % name)
        th.switch()
        frame = select_program_frame(site)
        gdb.execute("frame" if frame is None else "frame %d" % frame.level())


class SfStep(gdb.Command):
    """Run to the start of the step K steps on: sf step [K] (default 1)."""

    def __init__(self):
        super().__init__("sf step", gdb.COMMAND_RUNNING)

    def invoke(self, arg, from_tty):
        step = current_step()
        if step is None:
            raise gdb.GdbError("sf step: the program is not running (sf start runs it)")
        k = parse_count(arg, 1)
        if k < 1:
            raise gdb.GdbError("sf step: K is at least 1 (sf goto goes back)")
        check_target(step + k)
        forward_to(step + k)


class SfGoto(gdb.Command):
    """Go to the start of step N: sf goto N.
Forward by running on; back by running the program again from its start
(its replay is the same execution)."""

    def __init__(self):
        super().__init__("sf goto", gdb.COMMAND_RUNNING)

    def invoke(self, arg, from_tty):
        if not arg.strip():
            raise gdb.GdbError("sf goto: give the step, as sf goto 12")
        target = parse_count(arg, 0)
        check_target(target)
        step = current_step()
        if step is not None and target > step:
            forward_to(target)
        elif step is not None and target == step and state_text() and state_text()[0] == step:
            select_step_frame()
            print_where()
        else:
            restart_at(target)


def thread_number(arg, command):
    name = arg.strip().lstrip("Tt")
    if not name.isdigit():
        raise gdb.GdbError("%s: give a thread of the execution, as T1 or 1" % command)
    return int(name)


def at_step_stop(command):
    """The step the runtime stands at, when the program stopped there."""
    step = current_step()
    state = state_text() if step is not None else None
    if state is None or state[0] != step:
        raise gdb.GdbError("%s: the program is not stopped at a scheduling step (sf goto %s "
                           "goes to one)" % (command, step if step else "N"))
    return step, state


class SfNextThread(gdb.Command):
    """Run thread T next: sf next-thread T (T1 or 1), then the default rule.
The next decision takes T instead of what the input says, and every later
decision takes the default (the thread that runs goes on; when it cannot,
the lowest runnable one runs): you play the scheduler. Stops at the start
of the next step. sf save writes the schedule so far as an input."""

    def __init__(self):
        super().__init__("sf next-thread", gdb.COMMAND_RUNNING)

    def invoke(self, arg, from_tty):
        tid = thread_number(arg, "sf next-thread")
        step, state = at_step_stop("sf next-thread")
        if tid not in state[3]:
            raise gdb.GdbError("sf next-thread: T%d is not a live thread at step %d" % (tid, step))
        gdb.execute("set var *(int *)&__schedfuzz_debug_steer_result = 0", to_string=True)
        gdb.execute("set var *(int *)&__schedfuzz_debug_next_thread = %d" % tid, to_string=True)
        was = _steered["on"]
        _steered["on"] = True
        forward_to(step + 1)
        result = int(_value("*(int *)&__schedfuzz_debug_steer_result"))
        if result != 1:
            _steered["on"] = was
            set_step_variables()
            raise gdb.GdbError("sf next-thread: T%d could not run before step %d (no decision "
                               "had it among the threads that could go on): the input's "
                               "choice ran, and nothing was changed" % (tid, step + 1))
        now = state_text()
        runs = now[1].split() if now else []
        if now and ("T%d" % tid) not in runs[:3]:
            print("(T%d ran from the decision on; step %d is another thread's: T%d could not "
                  "go on to it)" % (tid, step + 1, tid))


class SfSave(gdb.Command):
    """Write the schedule so far as an input: sf save FILE.
An explicit input (decisions that depart from the default, then the
default) that replays this execution, your sf next-thread choices
included, up to this step and on: schedfuzz replay FILE -- PROG, or
schedfuzz debug --step N FILE -- PROG."""

    def __init__(self):
        super().__init__("sf save", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        path = arg.strip()
        if not path:
            raise gdb.GdbError("sf save: give the file, as sf save steered.in")
        step, _ = at_step_stop("sf save")
        try:
            genome, data = write_schedule(path)
        except OSError as e:
            raise gdb.GdbError("sf save: %s: %s" % (path, e.strerror))
        extra = " and %d bytes of harness data" % data if data else ""
        # an explicit genome: its header, then 5 bytes a decision (docs/genome.md)
        n = (genome - GENOME_HEADER) // DECISION_BYTES
        print("sf save: %s: the schedule up to step %d, %d decision%s that depart%s from the "
              "default%s" % (path, step, n, "" if n == 1 else "s", "s" if n == 1 else "", extra))
        if os.environ.get("SCHEDFUZZ_MEMORY") == "2":
            # a portable input's replay: every memory access was a point
            print("sf save: its decisions are numbered with every memory access a scheduling "
                  "point: replay it with SCHEDFUZZ_MEMORY=2")


ensure_breakpoint()
SfPrefix()
SfStart()
SfWhere()
SfThreads()
SfThread()
SfStep()
SfGoto()
SfNextThread()
SfSave()
gdb.events.stop.connect(on_stop)
gdb.events.exited.connect(on_exit)
gdb.execute("set print thread-events off")
gdb.execute("set print inferior-events off")
