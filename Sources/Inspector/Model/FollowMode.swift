import Recorder

/// Follow mode (`F`): re-read a growing log, and pause while the user looks back.
extension InspectorModel {
    // MARK: Follow mode and background indexing

    mutating func toggleFollow() {
        if timeline.follow && timeline.followPaused { resumeFollowing(); return }
        timeline.follow.toggle()
        timeline.followPaused = false
        if timeline.follow {
            pickUpNewEntries()
            selectRow(visibleEntryCount - 1)
            overlays.message = "Following \(source.name): new entries show as written (k looks back, F stops)"
        } else {
            overlays.message = "Follow mode off"
        }
    }

    /// F or G while paused: back to the newest entry, following again.
    mutating func resumeFollowing() {
        timeline.followPaused = false
        pickUpNewEntries()
        selectRow(visibleEntryCount - 1)
        overlays.message = "Following again"
    }

    /// Following and the selection left the newest entry (k, PgUp, g, a search, a click, the wheel): pause.
    mutating func pauseFollowWhenLookingBack() {
        guard timeline.follow, !timeline.followPaused, visibleEntryCount > 0, selectedRow < visibleEntryCount - 1 else { return }
        timeline.followPaused = true
        overlays.message = "Follow paused: new entries are counted, the selection stays (F or G resumes)"
    }

    /// Reads how far indexing got and, in follow mode, what was appended.
    mutating func pickUpNewEntries() {
        let notice = timeline.follow ? source.refresh() : nil
        let previous = timeline.count
        timeline.count = source.count
        if let notice {
            overlays.message = notice.message
            if notice.startedOver { startOverAfterReopen() }
        }
        guard timeline.count != previous else { return }
        if timeline.count < previous {
            // The file was cut and re-read: start the filter over and keep the selection in range.
            if let filter = timeline.filter { applyFilter(shown: filter.shown) }
            if timeline.selection >= timeline.count { select(entry: timeline.count - 1) }
            if let mark = timeline.mark, mark >= timeline.count { self.timeline.mark = nil }
        }
        if timeline.follow && !timeline.followPaused { selectRow(visibleEntryCount - 1) }
        if timeline.count > 0 && previous == 0 && !(timeline.follow && !timeline.followPaused) { timeline.selection = 0 }
    }
}
