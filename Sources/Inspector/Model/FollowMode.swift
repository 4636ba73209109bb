import Recorder

/// Follow mode (`F`): re-read a growing log, and pause while the user looks back.
extension InspectorModel {
    // MARK: Follow mode and background indexing

    mutating func toggleFollow() {
        if follow && followPaused { resumeFollowing(); return }
        follow.toggle()
        followPaused = false
        if follow {
            pickUpNewEntries()
            selectRow(visibleEntryCount - 1)
            message = "Following \(source.name): new entries show as written (k looks back, F stops)"
        } else {
            message = "Follow mode off"
        }
    }

    /// F or G while paused: back to the newest entry, following again.
    mutating func resumeFollowing() {
        followPaused = false
        pickUpNewEntries()
        selectRow(visibleEntryCount - 1)
        message = "Following again"
    }

    /// Following and the selection left the newest entry (k, PgUp, g, a search, a click, the wheel): pause.
    mutating func pauseFollowWhenLookingBack() {
        guard follow, !followPaused, visibleEntryCount > 0, selectedRow < visibleEntryCount - 1 else { return }
        followPaused = true
        message = "Follow paused: new entries are counted, the selection stays (F or G resumes)"
    }

    /// Reads how far indexing got and, in follow mode, what was appended.
    mutating func pickUpNewEntries() {
        let notice = follow ? source.refresh() : nil
        let previous = count
        count = source.count
        if let notice {
            message = notice.message
            if notice.startedOver { startOverAfterReopen() }
        }
        guard count != previous else { return }
        if count < previous {
            // The file was cut and re-read: start the filter over and keep the selection in range.
            if let filter { applyFilter(shown: filter.shown) }
            if selection >= count { select(entry: count - 1) }
            if let mark, mark >= count { self.mark = nil }
        }
        if follow && !followPaused { selectRow(visibleEntryCount - 1) }
        if count > 0 && previous == 0 && !(follow && !followPaused) { selection = 0 }
    }
}
