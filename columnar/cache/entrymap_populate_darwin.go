package cache

// mapPopulate is Linux's MAP_POPULATE; elsewhere pages fault in as read.
const mapPopulate = 0
