#!/bin/bash
# usage: measure.sh BIN OUTFILE RUNS
BIN=$1; OUT=$2; RUNS=${3:-3}
: > $OUT
echo "nproc $(nproc)" >> $OUT
for i in $(seq 1 $RUNS); do
  for cfg in "kvs" "records" "kvs --trace" "kvs --check"; do
    set -- $cfg
    k=$($BIN bench --kernel --format json | tr -d '\n ' )
    b=$( /usr/bin/time -f '%M' -o /tmp/perfwork/rss.txt timeout 900 $BIN bench --store $cfg --format json | tr -d '\n ')
    echo "run=$i cfg=[$cfg] kernel=$k bench=$b" >> $OUT
  done
done
