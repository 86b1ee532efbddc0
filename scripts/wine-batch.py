#!/usr/bin/env python3
"""Runs every test of a Windows test program under Wine in a few processes, not one each.

wine-batch.py RESULTS EMULATOR... PROGRAM

Starting a Wine process costs about a third of a second, so CTest's one process per test spent
most of the Windows stage starting Wine. With CASTKIT_WINE_BATCH=1 this runs the program as
CASTKIT_WINE_SHARDS googletest shards side by side (2 unless set), and writes RESULTS: one line
"passed<TAB>Suite.Name" or "skipped<TAB>Suite.Name" per test that passed or was skipped.
scripts/wine-test.sh, CTest's command for each test, reports those from RESULTS and runs any
other test alone under Wine, so a test that failed here, or a shard that never finished, is run
and reported as before. Without CASTKIT_WINE_BATCH=1 it removes RESULTS: every test runs alone.
"""
import os
import subprocess
import sys
import time
import xml.etree.ElementTree as ET


def host_to_wine(path):
    """The path a Windows program under Wine sees for a host path (drive Z: is /)."""
    return 'Z:' + os.path.abspath(path)


def run_shards(emulator, program, folder, shards):
    """Starts every shard, waits for all; returns each shard's XML report path and seconds."""
    running = []
    for index in range(shards):
        report = os.path.join(folder, f'shard{index}.xml')
        if os.path.exists(report):
            os.remove(report)
        env = dict(os.environ, GTEST_TOTAL_SHARDS=str(shards), GTEST_SHARD_INDEX=str(index))
        log = open(os.path.join(folder, f'shard{index}.log'), 'wb')
        command = emulator + [program, f'--gtest_output=xml:{host_to_wine(report)}']
        running.append((report, time.monotonic(), log,
                        subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT,
                                         stdin=subprocess.DEVNULL)))
    finished = []
    for report, start, log, process in running:
        code = process.wait()
        log.close()
        finished.append((report, time.monotonic() - start, code))
    return finished


def outcomes(report):
    """(status, Suite.Name) for each test of a googletest XML report; none if it is unreadable."""
    try:
        root = ET.parse(report).getroot()
    except (OSError, ET.ParseError):
        return []
    found = []
    for case in root.iter('testcase'):
        name = f"{case.get('classname')}.{case.get('name')}"
        if case.find('failure') is not None or case.find('error') is not None:
            found.append(('failed', name))
        elif case.get('result') == 'skipped' or case.find('skipped') is not None:
            found.append(('skipped', name))
        elif case.get('status') == 'run' and case.get('result', 'completed') == 'completed':
            found.append(('passed', name))
    return found


def main():
    results, emulator, program = sys.argv[1], sys.argv[2:-1], sys.argv[-1]
    if os.path.exists(results):
        os.remove(results)
    if os.environ.get('CASTKIT_WINE_BATCH') != '1':
        print('CASTKIT_WINE_BATCH is not 1: each test runs alone under Wine')
        return 0
    folder = os.path.dirname(results)
    os.makedirs(folder, exist_ok=True)
    shards = max(1, int(os.environ.get('CASTKIT_WINE_SHARDS', '2')))
    lines, counts = [], {'passed': 0, 'skipped': 0, 'failed': 0}
    for report, seconds, code in run_shards(emulator, program, folder, shards):
        found = outcomes(report)
        print(f'{os.path.basename(report)}: {len(found)} tests in {seconds:.1f} s, exit {code}')
        for status, name in found:
            counts[status] += 1
            if status != 'failed':
                lines.append(f'{status}\t{name}\n')
    partial = results + '.partial'
    with open(partial, 'w', encoding='utf-8') as out:
        out.writelines(lines)
    os.replace(partial, results)
    print(f"{counts['passed']} passed, {counts['skipped']} skipped, {counts['failed']} failed "
          '(each test not passed or skipped here runs alone under Wine)')
    return 0


if __name__ == '__main__':
    sys.exit(main())
