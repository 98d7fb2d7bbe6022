/* Excerpt of Tests/FetchIndexTests.m of https://github.com/ashalkhakov/FreeCoreData
   (commit 1b77e93e9e8eac5dd63716de38a0915789a9a338), MIT licence: LICENSE beside this file.
   Copied verbatim: the model the test builds and the indexes Apple's Core Data made for it. */

/* Fetch indexes: NSFetchIndexDescription and NSFetchIndexElementDescription,
   an entity's indexes and a property's indexed flag, and what an archive
   keeps of them.  Every expectation here was taken from Apple's Core Data
   on macOS, where this suite runs against it.

   Copyright (c) 2026 the GNUstep CoreData port contributors.
   Released under the MIT license. */

/* Folder <-->> Note; Place, with its subentity Cafe, <<-->> Tag.  With
   indexes when asked: on a string, descending and ascending together, a
   to-one alone and with an attribute, an R-tree, a partial one, and one on
   the subentity. */
- (NSManagedObjectModel *)storeModelWithIndexes:(BOOL)withIndexes
{
    NSEntityDescription *folder = entityWith(@"Folder", @[]);
    NSEntityDescription *note = entityWith(@"Note", @[]);
    NSEntityDescription *place = entityWith(@"Place", @[]);
    NSEntityDescription *cafe = entityWith(@"Cafe", @[]);
    NSEntityDescription *tag = entityWith(@"Tag", @[]);
    NSAttributeDescription *title = attribute(@"title", NSStringAttributeType);
    NSAttributeDescription *stamp = attribute(@"stamp", NSDateAttributeType);
    NSAttributeDescription *lat = attribute(@"lat", NSFloatAttributeType);
    NSAttributeDescription *roast = attribute(@"roast", NSStringAttributeType);
    NSRelationshipDescription *toFolder = relationship(@"folder", folder, NO);
    NSRelationshipDescription *notes = relationship(@"notes", note, YES);
    NSRelationshipDescription *tags = relationship(@"tags", tag, YES);
    NSRelationshipDescription *places = relationship(@"places", place, YES);

    inverse(toFolder, notes);
    inverse(tags, places);
    [folder setProperties:@[ attribute(@"name", NSStringAttributeType), notes ]];
    [note setProperties:@[ title, stamp, lat, toFolder ]];
    [place setProperties:@[ attribute(@"label", NSStringAttributeType), tags ]];
    [cafe setProperties:@[ roast ]];
    [tag setProperties:@[ attribute(@"word", NSStringAttributeType), places ]];
    [place setSubentities:@[ cafe ]];

    if (withIndexes) {
        NSFetchIndexDescription *titled = fetchIndex(@"byTitledOnly", @[ element(title, YES) ]);

        [titled setPartialIndexPredicate:[NSPredicate predicateWithFormat:@"title != nil"]];
        [note setIndexes:@[
            fetchIndex(@"byTitle", @[ element(title, YES) ]),
            fetchIndex(@"byStampAndTitle", @[ element(stamp, NO), element(title, YES) ]),
            fetchIndex(@"byFolder", @[ element(toFolder, YES) ]),
            fetchIndex(@"byFolderAndTitle", @[ element(toFolder, YES), element(title, NO) ]),
            fetchIndex(@"byPlace", @[ [[NSFetchIndexElementDescription alloc] initWithProperty:lat collationType:NSFetchIndexElementTypeRTree] ]),
            titled ]];
        [cafe setIndexes:@[ fetchIndex(@"byRoast", @[ element(roast, YES) ]) ]];
    }

    NSManagedObjectModel *model = [[NSManagedObjectModel alloc] init];

    [model setEntities:@[ folder, note, place, cafe, tag ]];
    return model;
}

/* The indexes Apple's store creates for this model, as it writes them. */
- (void)testTheStoreCreatesTheIndexesAppleDoes
{
    NSString *path = [self storePath];

    XCTAssertTrue([self openStoreAt:path model:[self storeModelWithIndexes:YES]]);

    NSDictionary *indexes = schemaObjects(path, "index");
    NSString *join = nil;

    for (NSString *table in schemaObjects(path, "table"))
        if ([table hasPrefix:@"Z_"] && [table hasSuffix:@"TAGS"])
            join = table;

    XCTAssertNotNil(join, @"the many-to-many's join table");

    NSArray *joinColumns = columnsOf(path, join);
    NSString *first = [joinColumns firstObject], *second = [joinColumns lastObject];
    NSString *joinIndex = [NSString stringWithFormat:@"%@_%@_INDEX", join, second];
    NSDictionary *expected = @{
        @"ZNOTE_ZFOLDER_INDEX": @"CREATE INDEX ZNOTE_ZFOLDER_INDEX ON ZNOTE (ZFOLDER)",
        @"ZPLACE_Z_ENT_INDEX": @"CREATE INDEX ZPLACE_Z_ENT_INDEX ON ZPLACE (Z_ENT)",
        joinIndex: [NSString stringWithFormat:@"CREATE INDEX %@ ON %@ (%@, %@)", joinIndex, join, second, first],
        @"Z_Note_byTitle": @"CREATE INDEX Z_Note_byTitle ON ZNOTE (ZTITLE COLLATE BINARY ASC)",
        @"Z_Note_byStampAndTitle": @"CREATE INDEX Z_Note_byStampAndTitle ON ZNOTE (ZSTAMP COLLATE BINARY DESC, ZTITLE COLLATE BINARY ASC)",
        @"Z_Note_byFolderAndTitle": @"CREATE INDEX Z_Note_byFolderAndTitle ON ZNOTE (ZFOLDER COLLATE BINARY ASC, ZTITLE COLLATE BINARY DESC)",
        @"Z_Note_byTitledOnly": @"CREATE INDEX Z_Note_byTitledOnly ON ZNOTE (ZTITLE COLLATE BINARY ASC) WHERE ZTITLE IS NOT NULL",
        @"Z_Cafe_byRoast": @"CREATE INDEX Z_Cafe_byRoast ON ZPLACE (ZROAST COLLATE BINARY ASC)",
    };

    /* No byFolder (the foreign key's index is it), no byPlace (an R-tree). */
    XCTAssertEqualObjects([NSSet setWithArray:[indexes allKeys]], [NSSet setWithArray:[expected allKeys]]);
    for (NSString *name in expected)
        XCTAssertEqualObjects([indexes objectForKey:name], [expected objectForKey:name], @"%@", name);

    [[NSFileManager defaultManager] removeItemAtPath:path error:NULL];
}
