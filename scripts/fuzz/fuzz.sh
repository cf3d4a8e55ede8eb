#!/usr/bin/env bash
# libFuzzer harnesses for SyncLab (issue 14), built with `swiftc -sanitize=fuzzer,address`.
#
#   scripts/fuzz/fuzz.sh build                 build the three targets into $FUZZ_BUILD
#   scripts/fuzz/fuzz.sh run TARGET [SECONDS]  fuzz one target (scenario, diff3, report); default 300 s
#   scripts/fuzz/fuzz.sh smoke [SECONDS]       every target on a fixed seed and input count, for CI
#                                              (each capped at SECONDS, default 20)
#
# Targets (scripts/fuzz/targets/):
#   scenario  the JSON5 reader and the scenario loader on arbitrary bytes
#   diff3     the three-way merge: no crash, markers balanced, trivial merges exact, both sides kept
#   report    report generation from arbitrary result.json/trace.jsonl bytes; the pages must
#             read back clean (InjectionCheck)
#
# Corpus: seeded from Scenarios/, Tests/Hostile/ and the committed Reports/, plus the
# minimized inputs under scripts/fuzz/corpus/TARGET/ (the regression inputs: commit every new
# finding there). New inputs libFuzzer finds go to $FUZZ_BUILD/corpus/TARGET/ (not committed);
# crashes to $FUZZ_BUILD/findings/TARGET/.
#
# Without libFuzzer in the toolchain (`swiftc -sanitize=fuzzer` fails), `smoke` says so and
# exits 0: CI machines with only a stock Swift toolchain still pass. `build` and `run` fail.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
here="$root/scripts/fuzz"
build="${FUZZ_BUILD:-$root/.build/fuzz}"
# Modules the targets need, in dependency order (Package.swift).
modules=(SyncLabKernel SyncLabJSON SyncLabProtocol SyncLabHistory SyncLabChecker SyncLabScenario SyncLabResult SyncLabReports SyncLabEngines)
targets=(scenario diff3 report)
# Swift's own crash backtracer trips ASan (a false stack-buffer-underflow in its memory reader).
export SWIFT_BACKTRACE=enable=no

libfuzzer_available() {
  local probe; probe="$(mktemp -d)"
  printf '@_cdecl("LLVMFuzzerTestOneInput") public func f(_ d: UnsafePointer<UInt8>, _ n: Int) -> CInt { 0 }\n' > "$probe/probe.swift"
  if swiftc -parse-as-library -sanitize=fuzzer,address "$probe/probe.swift" -o "$probe/probe" >/dev/null 2>&1; then
    rm -rf "$probe"; return 0
  fi
  rm -rf "$probe"; return 1
}

build_all() {
  mkdir -p "$build/modules"
  local earlier=() module target name
  for module in "${modules[@]}"; do
    local sources=() object="$build/modules/$module.o" stale=0
    while IFS= read -r file; do sources+=("$file"); done < <(find "$root/Sources/$module" -name '*.swift' | LC_ALL=C sort)
    # Rebuild a module only when it is missing, one of its sources is newer, or a module it
    # may import (an earlier one) is newer.
    if [ ! -f "$object" ] || [ -n "$(find "$root/Sources/$module" -name '*.swift' -newer "$object")" ]; then stale=1; fi
    for dependency in "${earlier[@]+"${earlier[@]}"}"; do [ "$dependency" -nt "$object" ] && stale=1; done
    earlier+=("$object")
    [ "$stale" = 1 ] || continue
    echo "fuzz: compiling $module (${#sources[@]} files)" >&2
    # -package-name: modules use `package` access (as SwiftPM builds them, one package).
    swiftc -parse-as-library -swift-version 6 -package-name synclab -O -enable-testing -wmo -num-threads 0 \
      -sanitize=fuzzer,address -module-name "$module" -I "$build/modules" \
      -emit-module -emit-module-path "$build/modules/$module.swiftmodule" \
      -c "${sources[@]}" -o "$object" 2> >(grep -v "Cannot export local symbol" >&2)
  done
  for target in "${targets[@]}"; do
    name="Fuzz$(tr '[:lower:]' '[:upper:]' <<< "${target:0:1}")${target:1}"
    [ "$target" = diff3 ] && name=FuzzDiff3
    echo "fuzz: linking fuzz-$target" >&2
    swiftc -parse-as-library -swift-version 6 -package-name synclab -O -sanitize=fuzzer,address -I "$build/modules" \
      "$here/targets/$name.swift" "$build/modules/"*.o -o "$build/fuzz-$target" 2> >(grep -v "Cannot export local symbol" >&2)
  done
}

# Seeds for a target into $build/seeds/TARGET (regenerated each time: cheap).
seed() {
  local target="$1" dir="$build/seeds/$1"
  rm -rf "$dir"; mkdir -p "$dir"
  case "$target" in
    scenario)
      cp "$root"/Scenarios/*.json "$dir/"
      for file in "$root"/Tests/Hostile/*.json; do cp "$file" "$dir/hostile-$(basename "$file")"; done ;;
    report)
      # result.json, NUL, trace.jsonl of the committed runs whose trace is small enough to mutate.
      local n=0
      while IFS= read -r result; do
        local trace="$(dirname "$result")/trace.jsonl"
        [ -f "$trace" ] && [ "$(wc -c < "$trace")" -lt 60000 ] || continue
        { cat "$result"; printf '\0'; cat "$trace"; } > "$dir/run-$n"; n=$((n + 1))
      done < <(find "$root/Reports" -name result.json | LC_ALL=C sort) ;;
    diff3) ;;
  esac
  if [ -d "$here/corpus/$target" ]; then cp "$here/corpus/$target/"* "$dir/" 2>/dev/null || true; fi
}

# run_target TARGET SECONDS [RUNS]: with RUNS, a smoke: a fixed seed, the seeds only (no corpus
# kept from earlier runs) and a fixed number of inputs, so CI sees the same inputs every time;
# SECONDS still caps it on a slow machine.
run_target() {
  local target="$1" seconds="$2" runs="${3:-}"
  [ -x "$build/fuzz-$target" ] || { echo "fuzz: $build/fuzz-$target is not built (run: $0 build)" >&2; return 2; }
  seed "$target"
  rm -rf "$build/findings/$target"; mkdir -p "$build/corpus/$target" "$build/findings/$target"
  local max_len=65536; [ "$target" = report ] && max_len=131072
  local inputs=("$build/corpus/$target" "$build/seeds/$target") limits=()
  if [ -n "$runs" ]; then inputs=("$build/seeds/$target"); limits=(-seed=1 -runs="$runs"); fi
  "$build/fuzz-$target" "${inputs[@]}" "${limits[@]}" \
    -max_total_time="$seconds" -timeout=20 -rss_limit_mb=4096 -max_len="$max_len" \
    -artifact_prefix="$build/findings/$target/" -print_final_stats=1 > "$build/$target.log" 2>&1 || true
  grep -E "^#[0-9]+ +(INITED|DONE)|Fatal error|ERROR|SUMMARY|stat::number_of_executed_units" "$build/$target.log" | sed "s/^/fuzz: $target: /" || true
  # A finding is an input written to findings/ (libFuzzer also exits non-zero then).
  if ls "$build/findings/$target/"* >/dev/null 2>&1; then
    echo "fuzz: $target FOUND $(ls "$build/findings/$target" | wc -l | tr -d ' ') input(s) in $build/findings/$target (see $build/$target.log)" >&2
    return 1
  fi
}

command="${1:-}"
case "$command" in
  build)
    libfuzzer_available || { echo "fuzz: this toolchain has no libFuzzer (swiftc -sanitize=fuzzer fails)" >&2; exit 2; }
    build_all ;;
  run)
    target="${2:?usage: $0 run scenario|diff3|report [SECONDS]}"
    build_all
    run_target "$target" "${3:-300}" ;;
  smoke)
    seconds="${2:-20}"
    if ! libfuzzer_available; then
      echo "fuzz: skipped: this toolchain has no libFuzzer (swiftc -sanitize=fuzzer fails)"
      exit 0
    fi
    build_all
    status=0
    # About 5-10 s each on a 2-core machine; SECONDS caps each on a slower one.
    run_target scenario "$seconds" 15000 || status=1
    run_target diff3 "$seconds" 15000 || status=1
    run_target report "$seconds" 1000 || status=1
    exit "$status" ;;
  *)
    sed -n '2,/^set -euo pipefail$/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
    [ -z "$command" ] || [ "$command" = --help ] || exit 2 ;;
esac
