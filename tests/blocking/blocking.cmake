# The blocking probes (blocking/blocking.tsv): correct programs that wait in
# the kernel (pipes, sockets, eventfd, poll, futexes through C++20's
# latch, barrier, semaphore and atomic wait, OpenMP's runtime) must pass
# every schedule with no report, and their buggy twins must be found and
# replay. Included by tests/CMakeLists.txt.
set(BLOCKING ${CMAKE_CURRENT_SOURCE_DIR}/blocking)
file(STRINGS ${BLOCKING}/blocking.tsv BLOCKING_PROBES REGEX "^[^#]")
set(BLOCKING_PROGRAMS "")
foreach(line ${BLOCKING_PROBES})
  sf_probe(blocking ${BLOCKING} "${line}" -g)
  set(name ${probe_name})
  set(prog ${probe_prog})
  set(expect "${probe_expect}")
  list(GET probe_fields 5 runs)
  list(APPEND BLOCKING_PROGRAMS ${prog})
  if(expect STREQUAL "clean")
    sf_check(blocking.${name} ${CHECKS}/expect_clean.sh ${prog} ${runs})
  else()
    sf_check(blocking.${name} ${CHECKS}/expect_found.sh ${prog} "${expect}" ${runs})
  endif()
endforeach()
add_custom_target(schedfuzz_blocking_programs ALL DEPENDS ${BLOCKING_PROGRAMS})

# The waits in the kernel are named in the reports: the deadlocks above,
# and a wait that something outside the process could still end (an
# accept nobody in the program connects to), which is no deadlock but a
# hang once the time runs out.
sf_check(blocking.pipe_poll.named ${BLOCKING}/expect_named.sh ${PROGS}/blocking_pipe_poll
  deadlock "poll on pipe fd [0-9]+" 10000)
sf_check(blocking.atomic_wait.named ${BLOCKING}/expect_named.sh ${PROGS}/blocking_atomic_wait
  deadlock "futex wait on 0x[0-9a-f]+, value [0-9]+ \\((request|answer)\\)" 10000)
sf_program(blocking_accept_forever schedfuzz-cc ${BLOCKING}/accept_forever.c -g)
add_custom_target(schedfuzz_blocking_hang_program ALL DEPENDS ${PROGS}/blocking_accept_forever)
sf_check(blocking.accept_forever ${BLOCKING}/expect_named.sh ${PROGS}/blocking_accept_forever
  "hang: still blocked after 2000 ms" "accept on TCP IPv4 socket fd [0-9]+" 1 2)

# OpenMP under libFuzzer: libomp's pooled workers end with each iteration,
# so every iteration's workers are controlled; the race is found and the
# fixed harness runs 2,000 inputs clean.
sf_program(blocking_omp_harness schedfuzz-cc ${BLOCKING}/omp_harness.c -g -fopenmp
  -fsanitize=fuzzer)
sf_program(blocking_omp_harness_fixed schedfuzz-cc ${BLOCKING}/omp_harness.c -g -fopenmp
  -fsanitize=fuzzer -DFIXED)
add_custom_target(schedfuzz_blocking_harnesses ALL DEPENDS ${PROGS}/blocking_omp_harness
  ${PROGS}/blocking_omp_harness_fixed)
sf_check(blocking.omp_harness ${CHECKS}/expect_fuzzed.sh ${PROGS}/blocking_omp_harness
  ${PROJECT_SOURCE_DIR}/seeds/random "assertion failure" 20000)
sf_check(blocking.omp_harness.fixed ${CHECKS}/expect_fuzzed.sh --clean
  ${PROGS}/blocking_omp_harness_fixed ${PROJECT_SOURCE_DIR}/seeds/random 2000)

# OpenMP in the ASan mode: a correct program built by plain clang with
# -fsanitize=address runs clean, and so does its schedfuzz-cc build run
# once on its own (its exploration is blocking.omp_reduction_asan).
sf_check(blocking.omp_asan_native ${BLOCKING}/omp_asan_native.sh ${BLOCKING}/omp_reduction.c
  ${PROGS}/blocking_omp_reduction_asan)
