#!/usr/bin/env bash
# Builds the libFuzzer targets and runs each for SECONDS (default 60).
#   Tests/Fuzz/run.sh [SECONDS] [TARGET...]
# Library targets link ComicsKit's objects; the parser, import, stderr and keys targets
# are compiled together with the executable's sources (all but main.swift) and
# link BrowseCore's objects too.
# Corpora grow in .build-fuzz/corpus/TARGET, seeded from Tests/Fixtures;
# crashes are written to .build-fuzz/findings/.
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ -d /opt/swift/usr/bin ]; then export PATH="/opt/swift/usr/bin:$PATH"; fi
seconds=${1:-60}
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then targets=(xkcd gutendex sanitizer image gutenberg html arguments import stderr keys); fi

scratch=.build-fuzz
flags=(-sanitize=fuzzer,address -parse-as-library -use-ld=lld)
swift build --target ComicsKit --scratch-path "$scratch" -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library >&2
swift build --target BrowseCore --scratch-path "$scratch" -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library >&2
swift build --target CImaging --scratch-path "$scratch" >&2
swift build --target CTerminal --scratch-path "$scratch" >&2
debug="$scratch/debug"
# ComicsKit's module needs the C modules it imports: CSQLite, CZstd and
# CZlib (module maps in their source folders), CCurl, CProcess and CHTML
# (module maps SwiftPM generated).
modules=(-I "$debug/Modules" -I Sources/CSQLite -I Sources/CZstd -I Sources/CZlib -I Sources/CCurl/include -Xcc -fmodule-map-file="$debug/CCurl.build/module.modulemap"
         -I Sources/CProcess/include -Xcc -fmodule-map-file="$debug/CProcess.build/module.modulemap"
         -I Sources/CHTML/include -Xcc -fmodule-map-file="$debug/CHTML.build/module.modulemap")
library=("$debug"/ComicsKit.build/*.o "$debug"/CCurl.build/*.o "$debug"/CProcess.build/*.o "$debug"/CHTML.build/*.o -lsqlite3 -lzstd -lz -ldl)
imaging=("$debug"/BrowseCore.build/*.o "$debug"/CImaging.build/*.o "$debug"/CTerminal.build/*.o -ldl)
executable_sources=()
while IFS= read -r source; do executable_sources+=("$source"); done < <(find Sources/comics -name '*.swift' ! -name main.swift | sort)

build() {
    local target=$1 output="$scratch/fuzz-$1"
    case $target in
        xkcd) swiftc "${flags[@]}" "${modules[@]}" Tests/Fuzz/FuzzXKCD.swift "${library[@]}" -o "$output" ;;
        gutendex) swiftc "${flags[@]}" "${modules[@]}" Tests/Fuzz/FuzzGutendex.swift "${library[@]}" -o "$output" ;;
        sanitizer) swiftc "${flags[@]}" "${modules[@]}" Tests/Fuzz/FuzzSanitizer.swift "${library[@]}" -o "$output" ;;
        image) swiftc "${flags[@]}" "${modules[@]}" Tests/Fuzz/FuzzImage.swift "${library[@]}" -o "$output" ;;
        gutenberg) swiftc "${flags[@]}" "${modules[@]}" Tests/Fuzz/FuzzGutenberg.swift Tests/Fuzz/BookContentChecks.swift "${library[@]}" -o "$output" ;;
        html) swiftc "${flags[@]}" "${modules[@]}" Tests/Fuzz/FuzzHTML.swift Tests/Fuzz/BookContentChecks.swift "${library[@]}" -o "$output" ;;
        arguments | import | stderr | keys)
            local file=Tests/Fuzz/FuzzArguments.swift
            [ "$target" = import ] && file=Tests/Fuzz/FuzzImport.swift
            [ "$target" = stderr ] && file=Tests/Fuzz/FuzzStderr.swift
            [ "$target" = keys ] && file=Tests/Fuzz/FuzzKeys.swift
            swiftc "${flags[@]}" -module-name comics "${modules[@]}" -I Sources/CImaging/include -I Sources/CTerminal/include \
                -Xcc -fmodule-map-file="$debug/CImaging.build/module.modulemap" \
                -Xcc -fmodule-map-file="$debug/CTerminal.build/module.modulemap" \
                "$file" "${executable_sources[@]}" "${library[@]}" "${imaging[@]}" -o "$output" ;;
        *) echo "unknown fuzz target: $target" >&2; exit 2 ;;
    esac
}

seed() {
    local target=$1 corpus="$scratch/corpus/$1"
    mkdir -p "$corpus"
    case $target in
        xkcd) for file in Tests/Fixtures/xkcd/*/info.0.json Tests/Fixtures/xkcd-quirks/*/info.0.json; do
                  cp "$file" "$corpus/$(basename "$(dirname "$file")").json"; done ;;
        gutendex) cp Tests/Fixtures/gutendex/*.json "$corpus/" ;;
        gutenberg) for file in Tests/Fixtures/gutenberg/pg11.txt Tests/Fixtures/gutenberg/pg1041.txt; do
                       head -c 16384 "$file" > "$corpus/$(basename "$file")"; tail -c 16384 "$file" > "$corpus/end-$(basename "$file")"; done ;;
        html) for file in Tests/Fixtures/gutenberg/pg11-images.html Tests/Fixtures/gutenberg/pg2701.2701-h.htm; do
                  head -c 16384 "$file" > "$corpus/$(basename "$file")"; done
              printf '<h1>T</h1><p><a href="#c1">I</a></p><h2 id="c1">CHAPTER I</h2><p>Words <i>here</i>.</p><div class="poem"><span class="i2">A line<br></span></div>' > "$corpus/small" ;;
        image) cp Tests/Fixtures/images/*.png Tests/Fixtures/images/*.jpg Tests/Fixtures/images/*.gif "$corpus/" ;;
        sanitizer) printf 'plain title' > "$corpus/plain"; printf 'a\033[31mred\033]8;;http://x\007link\302\233\342\200\256' > "$corpus/escapes";
                   printf 'Au \302\230 100\nlabel \303\242\302\206\302\220 sun' > "$corpus/stray-controls" ;;
        arguments) printf 'list\0-n\0005\0--format=json' > "$corpus/list"; printf 'fav\0add\0books:1342' > "$corpus/fav";
                   printf -- '-s\0books\0list\0--search\0jane austen' > "$corpus/books" ;;
        stderr) printf 'show\0\033]52;c;aGk=\007' > "$corpus/echoed"; printf 'list\0--format\0\302\233J' > "$corpus/format";
                printf 'fav\0add\0books:\342\200\256' > "$corpus/ref"; printf 'search\0\033[2J' > "$corpus/search";
                printf 'config\0set\0images\0\033[1A' > "$corpus/config" ;;
        keys) printf 'jjk\r\033[6~\0\033[' > "$corpus/keys"; printf '\033\0[A\303\0\251q' > "$corpus/split" ;;
        import) printf 'source,id\nxkcd,1\n"books","1342"\n' > "$corpus/csv"; printf '[{"source":"xkcd","id":353}]' > "$corpus/json";
                printf '{"source":"books","id":84}\n{"source":"xkcd","id":1}\n' > "$corpus/ndjson" ;;
    esac
}

mkdir -p "$scratch/findings"
summary=()
for target in "${targets[@]}"; do
    build "$target"
    seed "$target"
    log="$scratch/fuzz-$target.log"
    status=0
    # The stderr target runs comics against a database in this folder.
    home="$PWD/$scratch/home-$target"
    rm -rf "$home"
    COMICS_FUZZ_SCRATCH="$home" SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0 "$scratch/fuzz-$target" -max_total_time="$seconds" \
        -artifact_prefix="$scratch/findings/$target-" -print_final_stats=1 "$scratch/corpus/$target" > "$log" 2>&1 || status=$?
    runs=$(grep -m1 -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
    summary+=("$target: $runs executions, exit $status")
    if [ "$status" -ne 0 ]; then
        echo "fuzz-$target found a problem; see $log and $scratch/findings/" >&2
        tail -30 "$log" >&2
    fi
done
printf '%s\n' "${summary[@]}"
for line in "${summary[@]}"; do
    case $line in *"exit 0") ;; *) exit 1 ;; esac
done
