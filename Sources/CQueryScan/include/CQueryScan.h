#ifndef REWIND_CQUERY_SCAN_H
#define REWIND_CQUERY_SCAN_H

// The C halves of RewindQuery's scans: a record's head and a keyframe's tape,
// read where Swift's bounds checks and calls cost more than the reading.
#include "PlainTape.h"
#include "CheckedSkim.h"

#endif
