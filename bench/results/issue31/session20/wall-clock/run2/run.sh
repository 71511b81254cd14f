#!/usr/bin/env bash
cd /work/wc20b
for r in 1 2 3 4 5 6; do
  for n in sh1 ip6; do uptime >> load.txt; /work/extra-run/mcp-bench-$n messages --corpus real --rounds 15 > real-$n-$r.tsv; done
  uptime >> load.txt; /work/extra-run/mcp-bench-value-default time real /tmp/real.jsonl 15 > real-value-$r.tsv
done
echo done >> load.txt
