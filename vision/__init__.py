"""Image in, `TableView` out: tile detection, classification, orientation and layout."""
